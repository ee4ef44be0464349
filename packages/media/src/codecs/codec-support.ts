// What every codec adapter shares: one lazy start-up, typed failures.
import { MediaError } from '../errors.js';

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
  if (cause instanceof MediaError) return cause;
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
