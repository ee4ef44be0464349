import type { MediaPart, TextPart } from '../parts.js';

/** The text that stands in for media compaction took out, saying what it was so the model can ask again. */
export function mediaPlaceholder(part: MediaPart): TextPart {
  const bytes = Math.floor((part.data.length * 3) / 4) - (part.data.endsWith('==') ? 2 : part.data.endsWith('=') ? 1 : 0);
  const size = bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${(bytes / 1024).toFixed(1)} KB`;
  switch (part.type) {
    case 'image': {
      const pixels = part.width !== undefined && part.height !== undefined ? ` ${part.width}×${part.height}` : '';
      return { type: 'text', text: `[image omitted to save context: ${part.mediaType}${pixels}, ${size}; view it again if you need it]` };
    }
    case 'document': {
      const pages = part.pages === undefined ? '' : `, ${part.pages} page${part.pages === 1 ? '' : 's'}`;
      return { type: 'text', text: `[document omitted to save context: ${part.filename ?? 'PDF'}${pages}, ${size}; view it again if you need it]` };
    }
    default: {
      const exhaustive: never = part;
      return exhaustive;
    }
  }
}
