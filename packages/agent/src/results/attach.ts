import { detect, isMediaError, process, type ProcessOptions } from '@glimpse/media';
import { base64ToBytes } from '../base64.js';
import { modelErrorText } from './model-error-text.js';
import { failureNote, processNote } from './notes.js';
import { toMediaPart } from './to-media-part.js';
import type { Attachment, Part } from '../types.js';

/** What one attachment became: parts for the result (media, or text for text files) and notes for the model. */
export interface AttachedPart {
  parts: Part[];
  notes: string[];
}

const TEXT_HINT = /^text\/|[/+]json$|[/+]xml$|^application\/(javascript|x-sh|x-yaml|yaml|toml)/;

/** UTF-8 text of bytes when they are text; undefined when they are not (invalid UTF-8 or NUL bytes). */
function asText(bytes: Uint8Array): string | undefined {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return text.includes('\0') ? undefined : text;
  } catch {
    return undefined;
  }
}

/**
 * Sends one attachment through `@glimpse/media`'s `process`, whatever its source: raw bytes, base64 from a
 * part, MCP content. Never throws: what cannot be attached becomes a note saying why, and the turn goes on.
 */
export async function attach(attachment: Attachment, name: string, options: ProcessOptions): Promise<AttachedPart> {
  const bytes = attachment.bytes ?? (attachment.data === undefined ? undefined : base64ToBytes(attachment.data));
  if (bytes === undefined) {
    const why =
      attachment.data === undefined ? 'The attachment has neither bytes nor data' : 'Its data is not valid base64';
    return { parts: [], notes: [failureNote(name, 'E_CORRUPT', `${why}.`)] };
  }
  // A text file handed over as an attachment is read as text; media detection always wins over the hint.
  if (attachment.mediaType !== undefined && TEXT_HINT.test(attachment.mediaType) && detect(bytes) === undefined) {
    const text = asText(bytes);
    if (text !== undefined) return { parts: [{ type: 'text', text: `${name}:\n${text}` }], notes: [] };
  }
  try {
    const result = await process(bytes, options);
    const note = processNote(name, result);
    return { parts: [toMediaPart(result, attachment.filename)], notes: note === undefined ? [] : [note] };
  } catch (error) {
    const message = modelErrorText(error);
    return { parts: [], notes: [failureNote(name, isMediaError(error) ? error.code : undefined, message)] };
  }
}
