import type { FileReference } from '../types.js';

/**
 * What a run remembers of its uploads: a provider's reference by the sha256 (hex) of the bytes uploaded, so the
 * same screenshot is uploaded once per provider and a resumed session names it again. The in-memory one lives as
 * long as the run (or the app keeps it between runs); a session log keeps them as `media` lines.
 */
export interface MediaReferences {
  get(sha256: string, provider: FileReference['provider']): FileReference | undefined;
  /**
   * Called once per upload, and once more with the same reference expiring now (`expiresAt`) when the provider says
   * it no longer holds the file; a store may write it through (a session log appends a line). The newest put wins.
   */
  put(sha256: string, reference: FileReference): void | Promise<void>;
}

/** References held in memory, newest upload per hash and provider. */
export function createMemoryMediaReferences(
  initial: Iterable<{ sha256: string; reference: FileReference }> = [],
): MediaReferences {
  const held = new Map<string, FileReference>();
  const key = (sha256: string, provider: FileReference['provider']) => `${provider}:${sha256}`;
  for (const { sha256, reference } of initial) held.set(key(sha256, reference.provider), reference);
  return {
    get: (sha256, provider) => held.get(key(sha256, provider)),
    put: (sha256, reference) => {
      held.set(key(sha256, reference.provider), reference);
    },
  };
}
