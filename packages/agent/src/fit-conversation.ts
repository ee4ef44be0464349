import { isMediaError, PRESETS, process, probe, type PresetName } from '@glimpse/media';
import { base64ToBytes } from './base64.js';
import { toMediaPart } from './results/to-media-part.js';
import type { ProviderName } from './route/capabilities.js';
import { routeFor, type RouteOptions } from './route/resolve-route.js';
import type { ImagePart, Message, Part } from './types.js';
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
}

export interface FittedConversation {
  messages: Message[];
  /** `media-refitted` for each image sent smaller or in another format; `media-omitted` for what could not be fitted. */
  warnings: SerializeWarning[];
}

interface Target {
  preset: PresetName;
  maxEdge: number;
  maxBytes: number;
  accepts: readonly string[];
}

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
    const message = `an image (${part.mediaType}, ${from.width}x${from.height} px) was fitted again for this route as ${result.mediaType}, ${result.width}x${result.height} px`;
    warnings.push({
      type: 'media-refitted',
      mediaType: part.mediaType,
      messageIndex,
      from,
      to: { width: result.width, height: result.height },
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

/**
 * The conversation made to fit the route it is about to be sent over: every image that a roomier route's fit left
 * too large (or in a format this route refuses) is fitted again from its stored bytes, instead of being dropped:
 * to the route's preset (Anthropic: 1568 px, its native size), and to Anthropic's 2000 px once the request holds
 * more than 20 images. Only what no fitting can carry becomes a placeholder, with a warning. Serialize the result;
 * the serializers' own rules (counts, text-only models) then hold without losing an image that could be sent.
 * The session keeps the original parts: fitting is done per request (and cached across a run).
 */
export async function fitConversation(input: FitConversationInput): Promise<FittedConversation> {
  const { cache } = input;
  const route = routeFor(input.provider, input);
  const warnings: SerializeWarning[] = [];
  if (!route.capabilities.imageInput) return { messages: [...input.messages], warnings };
  const preset = PRESETS[route.preset];
  const many = route.media.limits.manyImages;
  const crowded = many !== undefined && countImages(input.messages) > many.above;
  const target: Target = {
    preset: route.preset,
    maxEdge: crowded ? Math.min(preset.maxEdge, many.maxEdge) : preset.maxEdge,
    maxBytes: preset.maxBytes,
    accepts: route.media.imageTypes.filter((type) => preset.accepts.includes(type)),
  };
  const key = `${target.preset}:${target.maxEdge}`;

  const fitParts = async (parts: readonly Part[], messageIndex: number): Promise<Part[]> => {
    const out: Part[] = [];
    for (const part of parts) {
      if (part.type !== 'image') {
        out.push(part);
        continue;
      }
      let byKey = cache?.get(part);
      let pending = byKey?.get(key);
      if (pending === undefined) {
        pending = fitImage(part, target);
        if (cache) {
          if (byKey === undefined) cache.set(part, (byKey = new Map()));
          byKey.set(key, pending);
        }
      }
      const fitted = await pending;
      out.push(...fitted.parts);
      warnings.push(...fitted.warnings.map((warning) => ({ ...warning, messageIndex })));
    }
    return out;
  };

  const messages: Message[] = [];
  for (const [index, message] of input.messages.entries()) {
    messages.push(message.role === 'assistant' ? message : { ...message, parts: await fitParts(message.parts, index) });
  }
  return { messages, warnings };
}
