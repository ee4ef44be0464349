import { createHash } from 'node:crypto';
import type { LoggedMessage, LoggedPart } from './session-format.js';

/** Hex sha256 of the bytes a base64 string encodes: identical media hash alike however they were encoded. */
export function sha256OfBase64(data: string): string {
  return createHash('sha256').update(Buffer.from(data, 'base64')).digest('hex');
}

/**
 * Content-addressed form of a logged message: media whose bytes are in `stored` become references
 * (`sha256` without `data`); new media keep `data` and gain `sha256`. Returns the hashes this line
 * introduces, which the writer marks stored only once the line is on disk.
 */
export function addressMedia(
  message: LoggedMessage,
  stored: ReadonlySet<string>,
): { message: LoggedMessage; introduced: string[] } {
  if (message.role === 'assistant') return { message, introduced: [] };
  const introduced: string[] = [];
  const content = message.content.map((part): LoggedPart => {
    if (part.type === 'text' || part.data === undefined) return part;
    const sha256 = sha256OfBase64(part.data);
    if (stored.has(sha256) || introduced.includes(sha256)) {
      const { data: _omitted, ...reference } = part;
      return { ...reference, sha256 };
    }
    introduced.push(sha256);
    return { ...part, sha256 };
  });
  return { message: { ...message, content }, introduced };
}
