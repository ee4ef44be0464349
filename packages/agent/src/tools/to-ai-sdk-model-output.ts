import type { FileToolResult } from './file-tool.js';

/** One item of a Vercel AI SDK (v6) tool model output, declared here so glimpse needs no `ai` dependency. */
export type AiSdkContentItem =
  | { type: 'text'; text: string }
  | { type: 'image-data'; data: string; mediaType: string }
  | { type: 'file-data'; data: string; mediaType: string; filename?: string };

/** What an AI SDK tool's `toModelOutput` returns. */
export type AiSdkModelOutput = { type: 'content'; value: AiSdkContentItem[] } | { type: 'error-text'; value: string };

/**
 * A glimpse tool result as the AI SDK's `toModelOutput` value: text stays text, images become
 * `image-data`, PDFs `file-data` (already fitted, so the SDK never ships an oversized original).
 * An error result becomes `error-text`. Use: `toModelOutput: ({ output }) => toAiSdkModelOutput(output)`.
 */
export function toAiSdkModelOutput(result: FileToolResult): AiSdkModelOutput {
  if (result.isError) {
    return { type: 'error-text', value: result.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n') };
  }
  return {
    type: 'content',
    value: result.parts.map((part): AiSdkContentItem => {
      switch (part.type) {
        case 'text':
          return { type: 'text', text: part.text };
        case 'image':
          return { type: 'image-data', data: part.data, mediaType: part.mediaType };
        case 'document':
          return { type: 'file-data', data: part.data, mediaType: part.mediaType, ...(part.filename !== undefined ? { filename: part.filename } : {}) };
        default: {
          const exhaustive: never = part;
          return exhaustive;
        }
      }
    }),
  };
}
