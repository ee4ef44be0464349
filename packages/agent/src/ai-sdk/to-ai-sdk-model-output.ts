import type { Part, ToolResult } from '../types.js';

/**
 * One item of a Vercel AI SDK tool model output (ai@7's `ToolResultOutput` content), declared here so the
 * core of glimpse needs no `ai` dependency. Media are `file` items with tagged base64 data: the deprecated
 * `image-data`/`file-data` items give the same request but a DeprecationWarning on every call.
 */
export type AiSdkContentItem =
  | { type: 'text'; text: string }
  | { type: 'file'; data: { type: 'data'; data: string }; mediaType: string; filename?: string };

/** What an AI SDK tool's `toModelOutput` returns. */
export type AiSdkModelOutput = { type: 'content'; value: AiSdkContentItem[] } | { type: 'error-text'; value: string };

/**
 * The same item as AI SDK 6 (`ai@6`) reads it: it knows no `file` item (its Anthropic provider drops one with a
 * warning, its OpenAI Chat provider writes `[object Object]`), so images are `image-data` and PDFs `file-data`.
 */
export type AiSdk6ContentItem =
  | { type: 'text'; text: string }
  | { type: 'image-data'; data: string; mediaType: string }
  | { type: 'file-data'; data: string; mediaType: string; filename?: string };

/** What a tool's `toModelOutput` returns under AI SDK 6. */
export type AiSdk6ModelOutput = { type: 'content'; value: AiSdk6ContentItem[] } | { type: 'error-text'; value: string };

/**
 * A glimpse tool result as the AI SDK's `toModelOutput` value: text stays text, images and PDFs become
 * `file` items (already fitted, so the SDK never ships an oversized original). An error result becomes
 * `error-text`. Use: `toModelOutput: ({ output }) => toAiSdkModelOutput(output)`; under AI SDK 6,
 * `toAiSdkModelOutput(output, { aiSdk: 6 })`, which writes `image-data` and `file-data` items instead.
 */
export function toAiSdkModelOutput(result: ToolResult, options: { aiSdk: 6 }): AiSdk6ModelOutput;
export function toAiSdkModelOutput(result: ToolResult, options?: { aiSdk?: 7 }): AiSdkModelOutput;
export function toAiSdkModelOutput(
  result: ToolResult,
  options: { aiSdk?: 6 | 7 } = {},
): AiSdkModelOutput | AiSdk6ModelOutput {
  if (result.isError) {
    return {
      type: 'error-text',
      value: result.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n'),
    };
  }
  const items = result.parts.map(toAiSdkContentItem);
  return options.aiSdk === 6 ? { type: 'content', value: items.map(toAiSdk6Item) } : { type: 'content', value: items };
}

/** An item in AI SDK 6's terms: a `file` becomes `image-data` (images) or `file-data` (anything else). */
export function toAiSdk6Item(item: AiSdkContentItem): AiSdk6ContentItem {
  if (item.type === 'text') return item;
  const { data, mediaType, filename } = item;
  return mediaType.startsWith('image/')
    ? { type: 'image-data', data: data.data, mediaType }
    : { type: 'file-data', data: data.data, mediaType, ...(filename !== undefined && { filename }) };
}

/** One glimpse part as an AI SDK content item: text stays text, images and PDFs become `file` items. */
export function toAiSdkContentItem(part: Part): AiSdkContentItem {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image':
      return { type: 'file', data: { type: 'data', data: part.data }, mediaType: part.mediaType };
    case 'document':
      return {
        type: 'file',
        data: { type: 'data', data: part.data },
        mediaType: part.mediaType,
        ...(part.filename !== undefined && { filename: part.filename }),
      };
    default: {
      const exhaustive: never = part;
      return exhaustive;
    }
  }
}
