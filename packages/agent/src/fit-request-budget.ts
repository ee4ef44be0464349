import { omitMedia } from './providers/placeholders.js';
import type { OmitReason, SerializeWarning } from './providers/types.js';
import type { MediaPart, Part } from './types.js';

/** One image or PDF of a request as the budget sees it: the part the session stores and what is sent for it now. */
export interface MediaSlot {
  readonly source: MediaPart;
  readonly messageIndex: number;
  /** In the newest turn (after the last assistant message): what the model is about to look at, spent last. */
  readonly newest: boolean;
  sent: Part[];
  warnings: SerializeWarning[];
  /** Sent as small as it may be (its legible floor, or a placeholder): the budget takes nothing more from it. */
  settled: boolean;
}

/** A smaller fit of a slot's image, from its stored bytes. `atFloor`: it could go no smaller and stay legible. */
export interface Refit {
  parts: Part[];
  warnings: SerializeWarning[];
  atFloor: boolean;
}

export interface RequestBudgetInput {
  /** Every media part of the request, oldest first. */
  slots: MediaSlot[];
  /** Most bytes the request may take (the route's `requestBytes`). */
  cap: number;
  /** Most images it may carry (the route's `imagesPerRequest`). */
  maxImages?: number;
  /** Bytes of the request as the slots stand now, measured on the serialized body. */
  measure: () => number;
  /** The slot's image fitted again within `maxBase64Bytes`, never below its legible floor; undefined if it cannot be. */
  refit: (slot: MediaSlot, maxBase64Bytes: number) => Promise<Refit | undefined>;
}

/** Room left for what a client adds to the body (model id, max_tokens, sampling settings). */
const CLIENT_HEADROOM = 64_000;
/**
 * The per-image allowances tried, in base64 bytes: 8 MB down to 47 KB in steps of 0.8, so most turns reuse the
 * last turn's fits. Below the last, a screenshot is no longer legible at 1024 px; the floor search takes over.
 */
const ALLOWANCES = Array.from({ length: 24 }, (_, k) => Math.round(8_000_000 * 0.8 ** k));
/** Rounds of re-fitting per turn group before the budget moves on. */
const MAX_ROUNDS = 6;

/** Bytes a slot adds to the request as it is sent now: base64 and text. */
export function sentBytes(slot: MediaSlot): number {
  return slot.sent.reduce((sum, part) => sum + (part.type === 'text' ? part.text.length : part.data.length), 0);
}

const carriesMedia = (slot: MediaSlot) => slot.sent.some((part) => part.type !== 'text');

/**
 * The largest allowance that, taken from every image above it, saves `excess` bytes; the smallest one when none
 * does (the floor decides how far each image really goes).
 */
function allowanceFor(sizes: readonly number[], excess: number): number {
  for (const allowance of ALLOWANCES) {
    const saved = sizes.reduce((sum, size) => sum + Math.max(0, size - allowance), 0);
    if (saved >= excess) return allowance;
  }
  return ALLOWANCES[ALLOWANCES.length - 1]!;
}

function omit(slot: MediaSlot, reason: OmitReason): void {
  const warnings: SerializeWarning[] = [];
  slot.sent = [omitMedia(slot.source, reason, slot.messageIndex, warnings)];
  slot.warnings = warnings;
  slot.settled = true;
}

/**
 * Spends a request's byte budget where it matters. Over the cap, the older turns' images are fitted smaller first
 * (each from its stored bytes: quality, then size, down to a legible floor), all of them to one allowance so no
 * image pays for another's detail; only then the newest turn's images; and only when every image is at its floor
 * do the oldest become placeholders that say what was left out. Every change leaves its warning on the slot.
 * Returns the request's bytes as sent.
 */
export async function fitRequestBudget({ slots, cap, maxImages, measure, refit }: RequestBudgetInput): Promise<number> {
  if (maxImages !== undefined) {
    const images = slots.filter((slot) => slot.source.type === 'image' && carriesMedia(slot));
    for (const slot of images.slice(0, Math.max(0, images.length - maxImages))) omit(slot, 'too-many-images');
  }
  const target = cap - CLIENT_HEADROOM;
  let size = measure();
  for (const group of [slots.filter((slot) => !slot.newest), slots.filter((slot) => slot.newest)]) {
    for (let round = 0; round < MAX_ROUNDS && size > target; round++) {
      const live = group.filter((slot) => !slot.settled && slot.source.type === 'image' && carriesMedia(slot));
      if (live.length === 0) break;
      const allowance = allowanceFor(live.map(sentBytes), size - target);
      let changed = false;
      for (const slot of live) {
        const before = sentBytes(slot);
        if (before <= allowance) continue;
        const smaller = await refit(slot, allowance);
        if (smaller === undefined) {
          slot.settled = true;
          continue;
        }
        const candidate = { ...slot, sent: smaller.parts };
        // A floor can weigh more than a fit that kept more pixels at a lower quality: keep the lighter one.
        if (sentBytes(candidate) < before) {
          slot.sent = smaller.parts;
          slot.warnings = smaller.warnings;
          changed = true;
        }
        if (smaller.atFloor) slot.settled = true;
      }
      if (!changed) break;
      size = measure();
    }
  }
  // Every image at its floor and still over: the oldest media become placeholders, oldest first.
  const order = [...slots.filter((slot) => !slot.newest), ...slots.filter((slot) => slot.newest)];
  while (size > target) {
    let estimate = size;
    for (const slot of order) {
      if (estimate <= target) break;
      if (!carriesMedia(slot)) continue;
      const before = sentBytes(slot);
      omit(slot, 'request-too-large');
      estimate -= before - sentBytes(slot);
    }
    const measured = measure();
    if (measured >= size) return measured; // nothing left to take: text alone is over the cap
    size = measured;
  }
  return size;
}
