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
 * A glimpse tool result as the AI SDK's `toModelOutput` value: text stays text, images and PDFs become
 * `file` items (already fitted, so the SDK never ships an oversized original). An error result becomes
 * `error-text`. Use: `toModelOutput: ({ output }) => toAiSdkModelOutput(output)`.
 */
export function toAiSdkModelOutput(result: ToolResult): AiSdkModelOutput {
  if (result.isError) {
    return {
      type: 'error-text',
      value: result.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n'),
    };
  }
  return {
    type: 'content',
    value: result.parts.map(toAiSdkContentItem),
  };
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
