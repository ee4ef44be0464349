import type { RouteName } from '@glimpse/media';
import { base64ToBytes } from '../base64.js';
import { referenceProvider, takesFileReference } from '../providers/file-reference.js';
import { sha256Hex } from '../session/sha256-hex.js';
import type { FileReference, MediaPart } from '../types.js';
import { checkFileReference } from './check-file-reference.js';
import type { MediaReferences } from './media-references.js';
import type { UploadMedia } from './media-upload.js';

/** What became of one medium: sent by reference, or inline because its upload failed (`failure` says why). */
export type ReferenceOutcome =
  | { reference: FileReference }
  | { failure: string; provider: FileReference['provider'] }
  | undefined;

/** Finds or makes the reference of an outgoing medium; `fitConversation` takes it as `references`. */
export type ResolveFileReference = (part: MediaPart, signal?: AbortSignal) => Promise<ReferenceOutcome>;

/** A run's references: the resolver, and `forget` for one the provider says it no longer holds. */
export interface FileReferences extends ResolveFileReference {
  /**
   * The medium of this reference is uploaded again the next time it is resolved (and the new one remembered). While
   * it is still its medium's newest, `memory` is told too, with the same reference expiring now (a session log
   * appends that as a `media` line): a later run over the same memory does not send the dead id, also when the
   * upload again fails. Never rejects: a `put` that fails leaves it forgotten for this run only.
   */
  forget(reference: FileReference): Promise<void>;
}

export interface FileReferencesInput {
  route: RouteName;
  upload: UploadMedia;
  memory: MediaReferences;
  /** The clock expiries are read against. Default `Date.now`. */
  now?: () => number;
}

/**
 * A reference that expires within this margin is uploaded again: the request, and its retries, must find the
 * file still there (Gemini deletes an upload 48 hours after it was made).
 */
const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

const EXPIRY_MARGIN_MS = 60 * 60 * 1000;

const EXTENSIONS: Record<MediaPart['mediaType'], string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/heic': 'heic',
  'image/heif': 'heif',
  'application/pdf': 'pdf',
};

/**
 * The references of one run: each medium is hashed once (sha256 of the bytes it sends), looked up in `memory`, and
 * uploaded only when no live reference is there. An upload that fails leaves the medium inline with the reason, and
 * is not tried again in the run: a turn never fails for a reference. Uploads of one medium are shared.
 */
export function resolveFileReferences({ route, upload, memory, now = Date.now }: FileReferencesInput): FileReferences {
  const provider = referenceProvider(route);
  // By the base64 string: history parts are the same strings turn after turn, so each is decoded and hashed once.
  const hashes = new Map<string, Promise<{ bytes: Uint8Array; sha256: string } | undefined>>();
  const pending = new Map<string, Promise<ReferenceOutcome>>();
  const failed = new Map<string, string>();
  // The references a provider said it no longer holds: their media are uploaded again.
  const stale = new Set<string>();
  // The medium (sha256) of each reference this run sent, so `forget` can tell `memory` which one is gone.
  const mediumOf = new Map<string, string>();
  const hashOf = (data: string) => {
    let hashed = hashes.get(data);
    if (hashed === undefined) {
      const bytes = base64ToBytes(data);
      hashed =
        bytes === undefined ? Promise.resolve(undefined) : sha256Hex(bytes).then((sha256) => ({ bytes, sha256 }));
      hashes.set(data, hashed);
    }
    return hashed;
  };
  const failedWith = (sha256: string, reason: string): ReferenceOutcome => {
    failed.set(sha256, reason);
    return provider === undefined ? undefined : { failure: reason, provider };
  };
  const live = (reference: FileReference) =>
    reference.expiresAt === undefined || Date.parse(reference.expiresAt) - EXPIRY_MARGIN_MS > now();

  const resolve = async (part: MediaPart, signal?: AbortSignal): Promise<ReferenceOutcome> => {
    if (provider === undefined || !takesFileReference(route, part)) return undefined;
    const hashed = await hashOf(part.data);
    if (hashed === undefined) return undefined; // not base64: the serializer's own checks speak of it
    const { bytes, sha256 } = hashed;
    const known = memory.get(sha256, provider);
    if (known !== undefined && live(known) && !stale.has(known.id)) {
      mediumOf.set(known.id, sha256);
      return { reference: known };
    }
    const failure = failed.get(sha256);
    if (failure !== undefined) return { failure, provider };
    let outcome = pending.get(sha256);
    if (outcome === undefined) {
      const filename =
        (part.type === 'document' ? part.filename : undefined) ??
        `${sha256.slice(0, 16)}.${EXTENSIONS[part.mediaType]}`;
      // Started in a then: an uploader that throws at once fails like one that rejects. Each step is caught: an
      // answer without a usable reference (checkFileReference), or a `put` that fails (the log's disk full, its
      // database down), leaves the medium inline with the reason, never a rejection. A reference that could not be
      // kept is not sent: a resume would not know it, and the log would not say which upload its request named.
      outcome = Promise.resolve()
        .then(() => upload({ bytes, mediaType: part.mediaType, sha256, filename }, signal))
        .then(checkFileReference)
        .then(
          async (reference): Promise<ReferenceOutcome> => {
            try {
              await memory.put(sha256, reference);
            } catch (error) {
              return failedWith(sha256, `the reference ${reference.id} could not be kept: ${reasonOf(error)}`);
            }
            stale.delete(reference.id); // a store may hand out an id again
            mediumOf.set(reference.id, sha256);
            return { reference };
          },
          (error: unknown): ReferenceOutcome => failedWith(sha256, reasonOf(error)),
        );
      pending.set(sha256, outcome);
      // `outcome` never rejects, so neither does this chain.
      void outcome.then(() => pending.delete(sha256));
    }
    return outcome;
  };
  return Object.assign(resolve, {
    forget: async (reference: FileReference) => {
      stale.add(reference.id);
      const sha256 = mediumOf.get(reference.id);
      const current = sha256 === undefined || provider === undefined ? undefined : memory.get(sha256, provider);
      // Only its medium's newest reference: an older one is no longer sent, and a newer upload must stay the one used.
      if (sha256 === undefined || current?.id !== reference.id || !live(current)) return;
      try {
        await memory.put(sha256, { ...current, expiresAt: new Date(now()).toISOString() });
      } catch {
        // Not kept: this run still uploads it again (`stale`); a resume costs one refused request for it.
      }
    },
  });
}
