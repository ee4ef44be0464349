// What every codec adapter shares: one lazy start-up, typed failures.
import { isMediaError, MediaError } from '../errors.js';
import { takersSentence } from '../presets/takers.js';
import type { MediaType } from '../types.js';

/** A start-up that runs once, on first need; a failed start is forgotten so the next call retries. */
export function lazy<T>(start: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () =>
    (pending ??= start().catch((error: unknown) => {
      pending = undefined;
      throw error;
    }));
}

/** Maps a codec's exception (emscripten abort, wasm trap, glue error) to a typed, actionable error. */
export function corrupt(format: string, cause: unknown): MediaError {
  if (isMediaError(cause)) return cause;
  // Emscripten throws a non-Error ExitStatus object; its message still says what happened.
  const detail =
    typeof cause === 'object' && cause !== null && 'message' in cause ? String(cause.message) : String(cause);
  return new MediaError(
    'E_CORRUPT',
    `The ${format} data could not be decoded (${detail}). The file is truncated or damaged: re-export or re-capture it.`,
    { format },
    { cause },
  );
}

/**
 * A file using a feature its decoder lacks (an AVIF or TIFF variant): says who takes the format as it is,
 * and to convert it. `label` names the format ("TIFF"), `reason` is the decoder's own words.
 */
export function unsupportedFeature(type: MediaType, label: string, reason: string, cause: unknown): MediaError {
  return new MediaError(
    'E_UNSUPPORTED',
    `The ${label} uses something glimpse's decoder does not support (${reason}). ${takersSentence(type, label)} Convert it to PNG or JPEG with the app that made it.`,
    { format: label },
    { cause },
  );
}

/** Data a decoder could not read: the file is truncated or damaged, and `redo` says what to do ("re-scan it"). */
export function undecodable(label: string, reason: string, redo: string, cause: unknown): MediaError {
  return new MediaError(
    'E_CORRUPT',
    `The ${label} data could not be decoded (${reason}). The file is truncated or damaged: ${redo}.`,
    { format: label },
    { cause },
  );
}
