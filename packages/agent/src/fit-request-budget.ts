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
  /**
   * Bytes kept free under the cap for what is added after (a client's model id and settings). Default
   * `clientHeadroom(cap)`: 64,000 under a cap of about 1 MB or more, less under a smaller one.
   */
  headroom?: number;
  /** Why the media left out are left out. Default `request-too-large`. */
  omitReason?: OmitReason;
}

/** Room left for what a client adds to the body (model id, max_tokens, sampling settings), under a large cap. */
const CLIENT_HEADROOM = 64_000;
/**
 * What a client adds to the serialized body: measured 0–60 bytes across the six live clients (Bedrock 0, Anthropic's
 * model and max_tokens 60); 1 KB leaves room for a long model id and sampling settings.
 */
const CLIENT_BYTES = 1_024;

/**
 * The headroom kept under `cap`: 1 KB and a sixteenth of the cap, at most 64,000 bytes (from a cap of about 1 MB on,
 * which a provider's own 20–50 MB are). A fixed 64,000 under a small gateway's cap (a 413 at 100 KB tightens it to 88 KB) would
 * leave room for no image at all, though a client adds only tens of bytes.
 */
export function clientHeadroom(cap: number): number {
  return Math.min(CLIENT_HEADROOM, CLIENT_BYTES + Math.ceil(cap / 16));
}
/**
 * Each step down takes an image to this share of the bytes it had at its route's fit: 0.6, 0.36, 0.22, … The
 * steps are fixed, so a later turn finds the same fits in the cache and re-fits only the images it moves down.
 */
const STEP = 0.6;
/** Steps tried before an image counts as at its floor (0.6^6: 5% of its first fit). */
const MAX_STEPS = 6;

/** What a medium sent by a provider file reference adds: its id or URI and the JSON around them, not its bytes. */
const REFERENCE_BYTES = 200;

/** Bytes a slot adds to the request as it is sent now: base64 (or a file reference) and text. */
export function sentBytes(slot: MediaSlot): number {
  return slot.sent.reduce(
    (sum, part) =>
      sum +
      (part.type === 'text' ? part.text.length : part.reference !== undefined ? REFERENCE_BYTES : part.data.length),
    0,
  );
}

const carriesMedia = (slot: MediaSlot) => slot.sent.some((part) => part.type !== 'text');

function omit(slot: MediaSlot, reason: OmitReason): void {
  const warnings: SerializeWarning[] = [];
  slot.sent = [omitMedia(slot.source, reason, slot.messageIndex, warnings)];
  slot.warnings = warnings;
  slot.settled = true;
}

/**
 * Spends a request's byte budget where it matters. Over the cap, images are fitted smaller oldest first, a step
 * at a time (each from its stored bytes: quality, then size, down to a legible floor): the oldest image goes a
 * step down, then the next, and only when every older image is a step down does the oldest go another. The
 * newest turn's images are touched only when every older one is at its floor, and only then do the oldest media
 * become placeholders that say what was left out. Every change leaves its warning on the slot. The request is
 * measured (serialized) at the start and the end; in between, by the bytes each change saves. Returns its bytes.
 */
export async function fitRequestBudget({
  slots,
  cap,
  maxImages,
  measure,
  refit,
  headroom = clientHeadroom(cap),
  omitReason = 'request-too-large',
}: RequestBudgetInput): Promise<number> {
  if (maxImages !== undefined) {
    const images = slots.filter((slot) => slot.source.type === 'image' && carriesMedia(slot));
    for (const slot of images.slice(0, Math.max(0, images.length - maxImages))) omit(slot, 'too-many-images');
  }
  const target = cap - headroom;
  let size = measure();
  if (size <= target) return size;
  const fitted = new Map(slots.map((slot) => [slot, sentBytes(slot)]));
  // Passes until the request fits or one changes nothing: a placeholder below then says truly that every image was
  // as small as it may be (an estimate that undercounted once left images unfitted after a fixed two passes).
  for (let changed = true; changed && size > target; ) {
    changed = false;
    let estimate = size;
    for (const group of [slots.filter((slot) => !slot.newest), slots.filter((slot) => slot.newest)]) {
      for (let step = 1; step <= MAX_STEPS && estimate > target; step++) {
        for (const slot of group) {
          if (estimate <= target) break;
          if (slot.settled || slot.source.type !== 'image' || !carriesMedia(slot)) continue;
          const before = sentBytes(slot);
          const allowance = Math.floor(fitted.get(slot)! * STEP ** step);
          if (before <= allowance) continue;
          const smaller = await refit(slot, allowance);
          if (smaller === undefined) {
            slot.settled = changed = true;
            continue;
          }
          // A floor can weigh more than a fit that kept more pixels at a lower quality: keep the lighter one.
          const after = sentBytes({ ...slot, sent: smaller.parts });
          if (after < before) {
            slot.sent = smaller.parts;
            slot.warnings = smaller.warnings;
            estimate -= before - after;
            changed = true;
          }
          if (smaller.atFloor || step === MAX_STEPS) slot.settled = changed = true;
        }
      }
    }
    size = measure();
  }
  // Every image at its floor and still over: the oldest media become placeholders, oldest first.
  const order = [...slots.filter((slot) => !slot.newest), ...slots.filter((slot) => slot.newest)];
  while (size > target) {
    let estimate = size;
    for (const slot of order) {
      if (estimate <= target) break;
      if (!carriesMedia(slot)) continue;
      const before = sentBytes(slot);
      omit(slot, omitReason);
      estimate -= before - sentBytes(slot);
    }
    const measured = measure();
    if (measured >= size) return measured; // nothing left to take: text alone is over the cap
    size = measured;
  }
  return size;
}
