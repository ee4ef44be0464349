import type { MediaFact } from './session-format.js';

/**
 * What a session's media lines say about each medium, by sha256: a later line adds to or replaces an earlier
 * one field by field (a refusal stays when a reference is recorded later, a new upload replaces an expired one).
 */
export function latestMediaFacts(lines: Iterable<MediaFact> | undefined): Map<string, MediaFact> {
  const facts = new Map<string, MediaFact>();
  for (const line of lines ?? []) {
    const known = facts.get(line.sha256);
    facts.set(line.sha256, {
      sha256: line.sha256,
      ...((line.refused ?? known?.refused) && { refused: line.refused ?? known?.refused }),
      ...((line.reference ?? known?.reference) && { reference: line.reference ?? known?.reference }),
    });
  }
  return facts;
}
