import type { ImageContent, TextContent } from '@mariozechner/pi-ai';
import type { ProcessOptions } from '@glimpse/media';
import type { Part } from '../types.js';
import { pdfAsTextAndPages } from '../tools/pdf-as-text-and-pages.js';

/** What pi's messages and tool results hold. */
export type PiContent = TextContent | ImageContent;

/**
 * glimpse parts as pi content. An image keeps its bytes and type, named the way pi reads it (`mimeType`);
 * pi has no document type, so a PDF becomes its text and page images (see `pdfAsTextAndPages`).
 */
export async function toPiContent(parts: readonly Part[], options: ProcessOptions = {}): Promise<PiContent[]> {
  const content: PiContent[] = [];
  for (const part of parts) {
    switch (part.type) {
      case 'text':
        content.push({ type: 'text', text: part.text });
        break;
      case 'image':
        content.push({ type: 'image', data: part.data, mimeType: part.mediaType });
        break;
      case 'document':
        content.push(...(await toPiContent(await pdfAsTextAndPages(part, options), options)));
        break;
      default: {
        const exhaustive: never = part;
        return exhaustive;
      }
    }
  }
  return content;
}

/**
 * pi content as glimpse parts, for a session log or a serializer. Only for content that has been through
 * `@glimpse/media` already (`fitPiContent`, a wrapped tool): an image of a type glimpse does not send becomes a note.
 */
export function fromPiContent(content: readonly PiContent[]): Part[] {
  return content.map((item): Part => {
    if (item.type === 'text') return { type: 'text', text: item.text };
    const { mimeType, data } = item;
    if (mimeType === 'image/png' || mimeType === 'image/jpeg' || mimeType === 'image/gif' || mimeType === 'image/webp')
      return { type: 'image', mediaType: mimeType, data };
    return { type: 'text', text: `[an image of type ${mimeType} was not kept: fit it with fitPiContent first]` };
  });
}
