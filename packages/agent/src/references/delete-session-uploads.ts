import type { MediaFact } from '../session/session-format.js';
import type { FileReference } from '../types.js';
import type { DeleteMedia } from './media-upload.js';

/** The live clients a session's uploads are deleted through, by the provider whose store holds them. */
export type UploadDeleters = Partial<Record<FileReference['provider'], { deleteMedia?: DeleteMedia }>>;

export interface DeletedUploads {
  /** Deleted from the provider's store now. */
  deleted: FileReference[];
  /**
   * The store no longer held them (deleted before, or expired: Gemini keeps files 48 hours; it answers 403 naming
   * the file), or their `expiresAt` has passed (not asked).
   */
  gone: FileReference[];
  /** No client with `deleteMedia` was given for their provider: left as they are. */
  skipped: FileReference[];
  /** The delete failed (network, credentials…): still in the store; run it again. */
  failed: { reference: FileReference; error: unknown }[];
}

/**
 * Deletes from the providers' file stores every upload a session's `media` lines name (each reference once, also
 * those a later upload replaced), through live clients made with `fileReferences: true` (their `deleteMedia`).
 * Uploads are otherwise never deleted: Anthropic and OpenAI keep them until they are, Gemini for 48 hours. The
 * session log is left as it is: a run that resumes it afterwards finds each reference gone, uploads the medium
 * again and goes on (one small refused request per file; see docs/budgets.md).
 */
export async function deleteSessionUploads(
  session: { media?: readonly MediaFact[] },
  clients: UploadDeleters,
  { signal }: { signal?: AbortSignal } = {},
): Promise<DeletedUploads> {
  const result: DeletedUploads = { deleted: [], gone: [], skipped: [], failed: [] };
  const seen = new Set<string>();
  for (const { reference } of session.media ?? []) {
    if (reference === undefined) continue;
    const key = `${reference.provider}\n${reference.id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    // Past its expiry the store holds it no longer (Gemini keeps files 48 hours): nothing to ask it.
    if (reference.expiresAt !== undefined && Date.parse(reference.expiresAt) <= Date.now()) {
      result.gone.push(reference);
      continue;
    }
    const deleteMedia = clients[reference.provider]?.deleteMedia;
    if (deleteMedia === undefined) {
      result.skipped.push(reference);
      continue;
    }
    signal?.throwIfAborted();
    try {
      result[await deleteMedia(reference, signal)].push(reference);
    } catch (error) {
      result.failed.push({ reference, error });
    }
  }
  return result;
}
