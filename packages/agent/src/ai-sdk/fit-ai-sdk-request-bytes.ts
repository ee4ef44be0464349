import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { PRESETS } from '@glimpse/media';
import { cachedFit, refitSmaller, type FitCache, type Target } from '../fit-image.js';
import { fitRequestBudget, type MediaSlot } from '../fit-request-budget.js';
import { requestJson } from '../providers/request-json.js';
import type { SerializeWarning } from '../providers/types.js';
import { utf8Length } from '../request-bytes.js';
import { formatBytes } from '../tools/format-bytes.js';
import type { ImagePart, Part } from '../types.js';
import type { AiSdkRoute } from './ai-sdk-route.js';
import type { AiSdkFile } from './fit-ai-sdk-file.js';

const IMAGE_TYPES = new Set<string>(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/heic', 'image/heif']);
/** Parts remembered by their base64, so a later step finds the same part and the fit cache holds. */
const MAX_REMEMBERED = 1_000;

export interface RequestBytesContext {
  route: AiSdkRoute;
  cache: FitCache;
  /** The middleware's own: the same base64 maps to the same part across steps. */
  parts: Map<string, ImagePart>;
  warn: (warning: SerializeWarning) => void;
  /** Tighter than the route's bytes per request. */
  maxRequestBytes?: number;
}

const isInlineImage = (item: unknown): item is AiSdkFile & { data: { type: 'data'; data: string } } =>
  typeof item === 'object' &&
  item !== null &&
  'type' in item &&
  item.type === 'file' &&
  'mediaType' in item &&
  IMAGE_TYPES.has(String(item.mediaType)) &&
  'data' in item &&
  typeof item.data === 'object' &&
  item.data !== null &&
  'type' in item.data &&
  item.data.type === 'data' &&
  'data' in item.data &&
  typeof item.data.data === 'string';

/**
 * The fitted prompt kept within the route's bytes per request as a whole (the same budget as `fitConversation`:
 * older images fitted smaller, oldest first, down to a legible floor, then the oldest left out with a note), for
 * the AI SDK middleware. Measured as the prompt's JSON, which is close to what each provider package sends.
 */
export async function fitAiSdkRequestBytes(
  prompt: LanguageModelV4Prompt,
  { route, cache, parts, warn, maxRequestBytes }: RequestBytesContext,
): Promise<LanguageModelV4Prompt> {
  const cap = Math.min(maxRequestBytes ?? Infinity, route.media.limits.requestBytes ?? Infinity);
  if (!Number.isFinite(cap) || !route.capabilities.imageInput) return prompt;
  const lastAssistant = prompt.findLastIndex((message) => message.role === 'assistant');
  const slots = new Map<object, MediaSlot>();
  const visit = (items: readonly unknown[], messageIndex: number) => {
    for (const item of items) {
      if (!isInlineImage(item)) continue;
      let source = parts.get(item.data.data);
      if (source === undefined) {
        source = { type: 'image', mediaType: item.mediaType as ImagePart['mediaType'], data: item.data.data };
        parts.set(item.data.data, source);
        if (parts.size > MAX_REMEMBERED) parts.delete(parts.keys().next().value!);
      }
      slots.set(item, {
        source,
        messageIndex,
        newest: messageIndex > lastAssistant,
        sent: [source],
        warnings: [],
        settled: false,
      });
    }
  };
  for (const [index, message] of prompt.entries()) {
    if (message.role === 'user') visit(message.content, index);
    if (message.role === 'tool')
      for (const part of message.content)
        if (part.type === 'tool-result' && part.output.type === 'content') visit(part.output.value, index);
  }
  if (slots.size === 0) return prompt;
  const replace = <T>(items: readonly T[]): T[] =>
    items.flatMap((item) => {
      const slot = typeof item === 'object' && item !== null ? slots.get(item) : undefined;
      if (slot === undefined) return [item];
      const file = item as AiSdkFile;
      return slot.sent.map((part: Part) =>
        part.type === 'text'
          ? ({ type: 'text', text: part.text } as T)
          : ({ ...file, data: { type: 'data', data: part.data }, mediaType: part.mediaType } as T),
      );
    });
  const assemble = (): LanguageModelV4Prompt =>
    prompt.map((message) => {
      if (message.role === 'user') return { ...message, content: replace(message.content) };
      if (message.role !== 'tool') return message;
      return {
        ...message,
        content: message.content.map((part) =>
          part.type === 'tool-result' && part.output.type === 'content'
            ? { ...part, output: { ...part.output, value: replace(part.output.value) } }
            : part,
        ),
      };
    });
  const preset = PRESETS[route.preset];
  const target: Target = {
    preset: route.preset,
    maxEdge: preset.maxEdge,
    maxBytes: preset.maxBytes,
    accepts: preset.accepts,
    why: `to keep the request under ${formatBytes(cap)} (${route.provider}'s bytes per request)`,
    forBudget: true,
  };
  const fit = cachedFit(cache);
  await fitRequestBudget({
    slots: [...slots.values()],
    cap,
    measure: () => utf8Length(requestJson(assemble())),
    refit: (slot, maxBase64Bytes) => refitSmaller(slot, maxBase64Bytes, target, fit),
  });
  for (const slot of slots.values())
    for (const warning of slot.warnings)
      warn('messageIndex' in warning ? { ...warning, messageIndex: slot.messageIndex } : warning);
  return assemble();
}
