import type { MediaFact } from '../session/session-format.js';
import type { SessionAppender } from '../session/session-store.js';
import type { FileReference } from '../types.js';
import type { DeleteMedia } from './media-upload.js';

/** The live clients a session's uploads are deleted through, by the provider whose store holds them. */
export type UploadDeleters = Partial<Record<FileReference['provider'], { deleteMedia?: DeleteMedia }>>;

/**
 * The session whose uploads are deleted: an open one (a store's `openSession`, a `SessionWriter`), whose log then
 * says which references are gone, or a read one (`readSession`), left as it is.
 */
export type SessionUploads = Pick<SessionAppender, 'resumed' | 'appendMedia'> | { media?: readonly MediaFact[] };

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

const keyOf = (provider: string, part: string) => `${provider}\n${part}`;

/**
 * Deletes from the providers' file stores every upload a session's `media` lines name (each reference once, also
 * those a later upload replaced), through live clients made with `fileReferences: true` (their `deleteMedia`).
 * Uploads are otherwise never deleted: Anthropic and OpenAI keep them until they are, Gemini for 48 hours.
 *
 * With an open session, each reference found deleted or gone that is still its medium's newest for its provider is
 * written to the log at once as a `media` line of the same reference expiring now (`expiresAt`, which every reader
 * of media lines honours): a run that resumes the session uploads that medium again on its first request instead
 * of sending the dead id and being refused. A reference the log already says is expired gets no second line; a
 * failed delete writes nothing. A read session is left as it is (a resume then costs one refused request per file).
 */
export async function deleteSessionUploads(
  session: SessionUploads,
  clients: UploadDeleters,
  { signal, now = () => new Date() }: { signal?: AbortSignal; now?: () => Date } = {},
): Promise<DeletedUploads> {
  const lines = 'appendMedia' in session ? (session.resumed?.media ?? []) : (session.media ?? []);
  const append = 'appendMedia' in session ? (fact: MediaFact) => session.appendMedia(fact) : undefined;
  // The reference each medium is sent with per provider: its newest line's (what a resume reads back).
  const newest = new Map<string, { sha256: string; reference: FileReference }>();
  for (const { sha256, reference } of lines)
    if (reference !== undefined) newest.set(keyOf(reference.provider, sha256), { sha256, reference });
  const result: DeletedUploads = { deleted: [], gone: [], skipped: [], failed: [] };
  const seen = new Set<string>();
  for (const { reference } of lines) {
    if (reference === undefined) continue;
    const key = keyOf(reference.provider, reference.id);
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
    let outcome: 'deleted' | 'gone';
    try {
      outcome = await deleteMedia(reference, signal);
    } catch (error) {
      result.failed.push({ reference, error });
      continue;
    }
    result[outcome].push(reference);
    if (append === undefined) continue;
    const at = now();
    for (const current of newest.values()) {
      const { provider, id, expiresAt } = current.reference;
      if (provider !== reference.provider || id !== reference.id) continue;
      if (expiresAt !== undefined && Date.parse(expiresAt) <= at.getTime()) continue;
      await append({ sha256: current.sha256, reference: { ...current.reference, expiresAt: at.toISOString() } });
    }
  }
  return result;
}
