import type { MediaFact } from './session-format.js';

/**
 * What a session's media lines say about each medium, by sha256: a later line adds to or replaces an earlier
 * one field by field (a refusal stays when a reference is recorded later, a new upload replaces an expired one).
 */
export function latestMediaFacts(lines: Iterable<MediaFact> | undefined): Map<string, MediaFact> {
  const facts = new Map<string, MediaFact>();
  for (const { sha256, refused, reference } of lines ?? []) {
    const known: MediaFact = facts.get(sha256) ?? { sha256 };
    if (refused) known.refused = refused;
    if (reference) known.reference = reference;
    facts.set(sha256, known);
  }
  return facts;
}
