import { isMediaError, PRESETS, process, probe, type PresetName } from '@glimpse/media';
import { base64ToBytes } from './base64.js';
import { fitRequestBudget, type MediaSlot, type Refit } from './fit-request-budget.js';
import { requestBytes } from './request-bytes.js';
import { toMediaPart } from './results/to-media-part.js';
import type { ProviderName } from './route/capabilities.js';
import { routeFor, type RouteOptions } from './route/resolve-route.js';
import { formatBytes } from './tools/format-bytes.js';
import type { ImagePart, Message, Part, ToolDefinition } from './types.js';
import { omitMedia } from './providers/placeholders.js';
import type { SerializeWarning } from './providers/types.js';

/** What fitting one image gave: the parts to send in its place and the warnings (their messageIndex set on use). */
interface FittedImage {
  parts: Part[];
  warnings: SerializeWarning[];
}

/** Fitted images by source part and limits, so a run does not fit the same history image at every step. */
export type FitCache = WeakMap<ImagePart, Map<string, Promise<FittedImage>>>;

export function createFitCache(): FitCache {
  return new WeakMap();
}

export interface FitConversationInput extends RouteOptions {
  messages: readonly Message[];
  /** The route the conversation is about to be sent over (with the model, as in `serialize`). */
  provider: ProviderName;
  /** Share one between calls (the agent loop keeps one per run). */
  cache?: FitCache;
  /** The system prompt and tools the request carries: they count towards its bytes. */
  system?: string;
  tools?: readonly ToolDefinition[];
  /** OpenAI Responses: as `serialize` is told, so the request is measured as it will be sent. */
  liftToolMedia?: boolean;
  /**
   * Most bytes of the serialized request. Default: the route's `requestBytes` (Anthropic 32 MB, Gemini 20 MB,
   * OpenAI 50 MB); a smaller figure tightens it (after a 413), `Infinity` turns the budget off.
   */
  maxRequestBytes?: number;
}

export interface FittedConversation {
  messages: Message[];
  /**
   * `media-refitted` for each image sent smaller or in another format (to the route, or to the request's byte
   * budget); `media-omitted` for what could not be fitted or did not fit the budget; `request-over-budget` when even
   * placeholders for every medium left the request over its cap (its text alone is too large).
   */
  warnings: SerializeWarning[];
  /** Bytes of the request body as serialized (JSON, base64 included), when the route has a byte cap. */
  requestBytes?: number;
}

interface Target {
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
const LEGIBLE_EDGE = 1024;

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
async function fitImage(part: ImagePart, target: Target): Promise<FittedImage> {
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

function countImages(messages: readonly Message[]): number {
  let count = 0;
  for (const message of messages)
    if (message.role !== 'assistant') for (const part of message.parts) if (part.type === 'image') count++;
  return count;
}

/** A message's parts as the request sends them: text as it is, each medium by its slot. */
type Piece = Part | MediaSlot;
const isSlot = (piece: Piece): piece is MediaSlot => 'source' in piece;

/**
 * The conversation made to fit the route it is about to be sent over, image by image and as a whole request.
 * Every image that a roomier route's fit left too large (or in a format this route refuses) is fitted again from
 * its stored bytes, instead of being dropped: to the route's preset (Anthropic: 1568 px, its native size), and to
 * Anthropic's 2000 px once the request holds more than 20 images. Then the whole request is measured as serialized
 * (base64, JSON, system prompt and tools): over the route's bytes per request, older images are fitted smaller,
 * then the newest turn's, down to a legible floor, and only then the oldest become placeholders (`fitRequestBudget`).
 * Only what no fitting can carry becomes a placeholder, with a warning. Serialize the result; the serializers' own
 * rules (counts, text-only models) then hold without losing an image that could be sent. The session keeps the
 * original parts: fitting is done per request (and cached across a run).
 */
export async function fitConversation(input: FitConversationInput): Promise<FittedConversation> {
  const { cache } = input;
  const route = routeFor(input.provider, input);
  const warnings: SerializeWarning[] = [];
  if (!route.capabilities.imageInput) return { messages: [...input.messages], warnings };
  const preset = PRESETS[route.preset];
  const many = route.media.limits.manyImages;
  const crowded = many !== undefined && countImages(input.messages) > many.above;
  const routeTarget: Target = {
    preset: route.preset,
    maxEdge: crowded ? Math.min(preset.maxEdge, many.maxEdge) : preset.maxEdge,
    maxBytes: preset.maxBytes,
    accepts: route.media.imageTypes.filter((type) => preset.accepts.includes(type)),
    why: 'for this route',
  };
  const fit = (part: ImagePart, target: Target): Promise<FittedImage> => {
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

  const lastAssistant = input.messages.findLastIndex((message) => message.role === 'assistant');
  const pieces: Piece[][] = [];
  const slots: MediaSlot[] = [];
  for (const [index, message] of input.messages.entries()) {
    if (message.role === 'assistant') {
      pieces.push([]);
      continue;
    }
    const row: Piece[] = [];
    for (const part of message.parts) {
      if (part.type === 'text') {
        row.push(part);
        continue;
      }
      const fitted = part.type === 'image' ? await fit(part, routeTarget) : { parts: [part], warnings: [] };
      const slot: MediaSlot = {
        source: part,
        messageIndex: index,
        newest: index > lastAssistant,
        sent: fitted.parts,
        warnings: fitted.warnings,
        settled: false,
      };
      slots.push(slot);
      row.push(slot);
    }
    pieces.push(row);
  }
  const assemble = (): Message[] =>
    input.messages.map((message, index) =>
      message.role === 'assistant'
        ? message
        : { ...message, parts: pieces[index]!.flatMap((piece) => (isSlot(piece) ? piece.sent : [piece])) },
    );

  const cap = Math.min(input.maxRequestBytes ?? Infinity, route.media.limits.requestBytes ?? Infinity);
  let measured: number | undefined;
  if (Number.isFinite(cap)) {
    const measure = () =>
      requestBytes(route.provider, {
        ...(input.system !== undefined && { system: input.system }),
        ...(input.tools !== undefined && { tools: input.tools }),
        ...(input.liftToolMedia !== undefined && { liftToolMedia: input.liftToolMedia }),
        messages: assemble(),
        route,
      });
    const why = `to keep the request under ${formatBytes(cap)} (${route.provider}'s bytes per request)`;
    const { imagesPerRequest } = route.media.limits;
    measured = await fitRequestBudget({
      slots,
      cap,
      ...(imagesPerRequest !== undefined && { maxImages: imagesPerRequest }),
      measure,
      refit: (slot, maxBase64Bytes) =>
        refitSmaller(slot, maxBase64Bytes, { ...routeTarget, why, forBudget: true }, fit),
    });
  }
  for (const slot of slots)
    warnings.push(...slot.warnings.map((warning) => ({ ...warning, messageIndex: slot.messageIndex })));
  if (measured !== undefined && measured > cap)
    warnings.push({
      type: 'request-over-budget',
      bytes: measured,
      cap,
      message: `the request is ${formatBytes(measured)} with every medium left out, over ${route.provider}'s ${formatBytes(cap)} per request: shorten its text or history`,
    });
  return { messages: assemble(), warnings, ...(measured !== undefined && { requestBytes: measured }) };
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
async function refitSmaller(
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
