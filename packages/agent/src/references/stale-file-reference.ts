import type { FileReference, Message } from '../types.js';
import { mentionsReference } from './mentions-reference.js';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** The HTTP status a failed call reports (a `ModelClientError`'s `details.status`, or an SDK error's `status`). */
function statusOf(error: unknown): number | undefined {
  if (!isRecord(error)) return undefined;
  const details = isRecord(error.details) ? error.details : undefined;
  const status = details?.status ?? error.status;
  return typeof status === 'number' ? status : undefined;
}

/**
 * The reference a refused request named that the provider no longer holds: a 4xx whose error names the `file_id` or
 * `fileUri` of one the request sent (a file deleted from the store, or gone before its expiry; Gemini answers 403
 * PERMISSION_DENIED "You do not have permission to access the File abc or it may not exist", naming `files/abc` by
 * its last segment). Matched on the reference itself, never on a phrase: the error must carry the id the request
 * sent, so a 403 for a bad key (which names no file) stays an `E_AUTH` failure.
 */
export function staleFileReference(error: unknown, sent: readonly Message[]): FileReference | undefined {
  const status = statusOf(error);
  if (status === undefined || status < 400 || status >= 500 || status === 413 || status === 429) return undefined;
  const text = error instanceof Error ? error.message : String(error);
  for (const message of sent) {
    if (message.role === 'assistant') continue;
    for (const part of message.parts) {
      const reference = part.type === 'text' ? undefined : part.reference;
      if (reference === undefined) continue;
      if (mentionsReference(text, reference)) return reference;
    }
  }
  return undefined;
}
