import type { MediaPart, TextPart } from '../types.js';
import { formatBytes } from '../tools/format-bytes.js';
import { base64Size } from './base64-size.js';

/** The text that stands in for media compaction took out, saying what it was so the model can ask again. */
export function mediaPlaceholder(part: MediaPart): TextPart {
  const size = formatBytes(base64Size(part.data));
  switch (part.type) {
    case 'image': {
      const pixels = part.width !== undefined && part.height !== undefined ? ` ${part.width}×${part.height}` : '';
      return {
        type: 'text',
        text: `[image omitted to save context: ${part.mediaType}${pixels}, ${size}; view it again if you need it]`,
      };
    }
    case 'document': {
      const pages = part.pages === undefined ? '' : `, ${part.pages} page${part.pages === 1 ? '' : 's'}`;
      return {
        type: 'text',
        text: `[document omitted to save context: ${part.filename ?? 'PDF'}${pages}, ${size}; view it again if you need it]`,
      };
    }
    default: {
      const exhaustive: never = part;
      return exhaustive;
    }
  }
}
