import type { ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import type { Part } from '../types.js';

/**
 * glimpse parts as MCP tool-result content: text as text, images as `image` content (base64 + mimeType),
 * PDFs as an embedded `resource` with a `blob` (MCP has no document content type). `uri` names the PDF's
 * source so a client can show where it came from.
 */
export function partsToMcpContent(
  parts: readonly Part[],
  pdfUri: (filename: string | undefined) => string,
): ContentBlock[] {
  return parts.map((part): ContentBlock => {
    switch (part.type) {
      case 'text':
        return { type: 'text', text: part.text };
      case 'image':
        return { type: 'image', data: part.data, mimeType: part.mediaType };
      case 'document':
        return {
          type: 'resource',
          resource: { uri: pdfUri(part.filename), mimeType: part.mediaType, blob: part.data },
        };
      default: {
        const exhaustive: never = part;
        return exhaustive;
      }
    }
  });
}
