import { base64ToBytes } from '../base64.js';
import { sha256Hex } from './sha256-hex.js';
import type { LoggedMessage, LoggedPart } from './session-format.js';
import { SessionError } from './session-error.js';

/** One medium a store keeps once, as bytes, under the hex SHA-256 of those bytes. */
export interface StoredMedium {
  sha256: string;
  mediaType: string;
  bytes: Uint8Array;
}

/**
 * Splits a logged message into the entry a database store keeps (each medium replaced by its reference,
 * `sha256` without `data`: the content-addressed JSONL shape) and the media it refers to, deduplicated.
 */
export async function detachMedia(message: LoggedMessage): Promise<{ message: LoggedMessage; media: StoredMedium[] }> {
  if (message.role === 'assistant') return { message, media: [] };
  const media = new Map<string, StoredMedium>();
  const content = await Promise.all(
    message.content.map(async (part): Promise<LoggedPart> => {
      if (part.type === 'text' || part.data === undefined) return part;
      const bytes = base64ToBytes(part.data);
      if (bytes === undefined)
        throw new SessionError('E_SESSION_CORRUPT', `a ${part.type} part's data is not base64; nothing was stored`);
      const sha256 = await sha256Hex(bytes);
      if (!media.has(sha256)) media.set(sha256, { sha256, mediaType: part.mimeType, bytes });
      const { data: _detached, ...reference } = part;
      return { ...reference, sha256 };
    }),
  );
  return { message: { ...message, content }, media: [...media.values()] };
}
