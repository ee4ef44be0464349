import { isMediaError, process, probe, type PresetName } from '@glimpse/media';
import { base64ToBytes } from './base64.js';
import type { MediaSlot, Refit } from './fit-request-budget.js';
import { omitMedia } from './providers/placeholders.js';
import type { SerializeWarning } from './providers/types.js';
import { toMediaPart } from './results/to-media-part.js';
import { formatBytes } from './tools/format-bytes.js';
import type { ImagePart, Part } from './types.js';

/** What fitting one image gave: the parts to send in its place and the warnings (their messageIndex set on use). */
export interface FittedImage {
  parts: Part[];
  warnings: SerializeWarning[];
}

/** Fitted images by source part and limits, so a run does not fit the same history image at every step. */
export type FitCache = WeakMap<ImagePart, Map<string, Promise<FittedImage>>>;

export function createFitCache(): FitCache {
  return new WeakMap();
}

/** What an image is fitted to: the preset's limits, tightened by the route or the budget. */
export interface Target {
  preset: PresetName;
  maxEdge: number;
  maxBytes: number;
  accepts: readonly string[];
  /** Why this fit was made, for the warning: "for this route", "to keep the request under 32 MB". */
  why: string;
  /** Made for the request's byte budget: the warning then says the bytes before and after. */
  forBudget?: boolean;
}

/**
 * The long edge (px) under which an image is no longer fitted smaller for the request's budget: XGA's 1024, the
 * screenshot size Anthropic's computer-use guide recommends. Smaller images keep their own size.
 */
export const LEGIBLE_EDGE = 1024;

/** Pixel size of an image part: as recorded, or read from its bytes' header. */
async function sizeOf(part: ImagePart, bytes: Uint8Array): Promise<{ width: number; height: number } | undefined> {
  if (part.width !== undefined && part.height !== undefined) return { width: part.width, height: part.height };
  try {
    const info = await probe(bytes);
    return info.width && info.height ? { width: info.width, height: info.height } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One image as the route takes it: the part itself when it already fits; else fitted again from its stored bytes,
 * followed by a note that maps coordinates to the size the conversation described before; else a placeholder.
 */
export async function fitImage(part: ImagePart, target: Target): Promise<FittedImage> {
  const warnings: SerializeWarning[] = [];
  return { parts: await fitImageParts(part, target, warnings), warnings };
}

async function fitImageParts(part: ImagePart, target: Target, warnings: SerializeWarning[]): Promise<Part[]> {
  const messageIndex = -1; // stamped by the caller: the same fit serves every request of a run
  const bytes = base64ToBytes(part.data);
  if (bytes === undefined) return [omitMedia(part, 'invalid-data', messageIndex, warnings)];
  const size = await sizeOf(part, bytes);
  const fits =
    size !== undefined &&
    Math.max(size.width, size.height) <= target.maxEdge &&
    bytes.length <= target.maxBytes &&
    target.accepts.includes(part.mediaType);
  if (fits) return [part];
  try {
    const result = await process(bytes, { preset: target.preset, maxEdge: target.maxEdge, maxBytes: target.maxBytes });
    const fitted = toMediaPart(result);
    if (fitted.type !== 'image') return [omitMedia(part, 'cannot-fit', messageIndex, warnings)];
    const from = size ?? { width: result.original.width, height: result.original.height };
    const factor = from.width / result.width;
    const resized = from.width !== result.width || from.height !== result.height;
    const sizes = target.forBudget ? `, ${formatBytes(result.bytes)} instead of ${formatBytes(bytes.length)}` : '';
    const message = `an image (${part.mediaType}, ${from.width}x${from.height} px) was fitted again ${target.why} as ${result.mediaType}, ${result.width}x${result.height} px${sizes}`;
    warnings.push({
      type: 'media-refitted',
      mediaType: part.mediaType,
      messageIndex,
      from,
      to: { width: result.width, height: result.height },
      ...(target.forBudget && { bytes: { from: bytes.length, to: result.bytes } }),
      message,
    });
    if (!resized) return [fitted];
    const note = `[This image was fitted again for this model: ${result.width}x${result.height} px instead of ${from.width}x${from.height}; multiply coordinates in it by ${factor.toFixed(3)} to map them to the ${from.width}x${from.height} image described before.]`;
    return [fitted, { type: 'text', text: note }];
  } catch (error) {
    const why = isMediaError(error) ? error.code : 'an error';
    const placeholder = omitMedia(part, 'cannot-fit', messageIndex, warnings);
    return [{ type: 'text', text: placeholder.text.replace(/\]$/, ` (${why})]`) }];
  }
}

/** `fitImage` through a cache: one fit per image and target for a whole run. */
export function cachedFit(cache: FitCache | undefined): (part: ImagePart, target: Target) => Promise<FittedImage> {
  return (part, target) => {
    const key = `${target.preset}:${target.maxEdge}:${target.maxBytes}${target.forBudget ? ':budget' : ''}`;
    let byKey = cache?.get(part);
    let pending = byKey?.get(key);
    if (pending === undefined) {
      pending = fitImage(part, target);
      if (cache) {
        if (byKey === undefined) cache.set(part, (byKey = new Map()));
        byKey.set(key, pending);
      }
    }
    return pending;
  };
}

/** The long edge of the image a slot sends now (as recorded, else read from its header), if it sends one. */
async function sentEdge(slot: MediaSlot): Promise<number | undefined> {
  const image = slot.sent.find((part): part is ImagePart => part.type === 'image');
  const bytes = image === undefined ? undefined : base64ToBytes(image.data);
  const size = image === undefined || bytes === undefined ? undefined : await sizeOf(image, bytes);
  return size === undefined ? undefined : Math.max(size.width, size.height);
}

/**
 * The slot's image fitted from its stored bytes within `maxBase64Bytes`: quality first, then size (what `process`
 * does for maxBytes), at the size it is sent now, else at the legible edge. When even that edge takes more, the
 * image is at its floor: the smallest legible fit found by doubling the allowance at that edge (the budget then
 * takes from other images, and then leaves the oldest out).
 */
export async function refitSmaller(
  slot: MediaSlot,
  maxBase64Bytes: number,
  budgetTarget: Target,
  fit: (part: ImagePart, target: Target) => Promise<FittedImage>,
): Promise<Refit | undefined> {
  const edge = await sentEdge(slot);
  if (slot.source.type !== 'image' || edge === undefined) return undefined;
  const floorEdge = Math.min(edge, LEGIBLE_EDGE);
  const legible = (fitted: FittedImage) => {
    const image = fitted.parts.find((part): part is ImagePart => part.type === 'image');
    return image !== undefined && Math.max(image.width ?? 0, image.height ?? 0) >= floorEdge;
  };
  const maxBytes = Math.floor((maxBase64Bytes * 3) / 4);
  for (const maxEdge of edge > floorEdge ? [edge, floorEdge] : [edge]) {
    const fitted = await fit(slot.source, { ...budgetTarget, maxEdge, maxBytes });
    if (legible(fitted)) return { ...fitted, atFloor: false };
  }
  for (let bytes = maxBytes * 2; bytes < budgetTarget.maxBytes; bytes *= 2) {
    const fitted = await fit(slot.source, { ...budgetTarget, maxEdge: floorEdge, maxBytes: bytes });
    if (legible(fitted)) return { ...fitted, atFloor: true };
  }
  const floor = await fit(slot.source, { ...budgetTarget, maxEdge: floorEdge });
  return legible(floor) ? { ...floor, atFloor: true } : undefined;
}
