import { describe, expect, it } from 'vitest';
import { latestMediaFacts } from './media-facts.js';
import type { MediaFact } from './session-format.js';

const a = 'a'.repeat(64);
const b = 'b'.repeat(64);
const refused = (route: string): MediaFact['refused'] => ({
  route,
  code: 'E_MEDIA_REFUSED',
  action: 'placeholder',
  reason: 'Could not process image',
});
const reference = (id: string): MediaFact['reference'] => ({ provider: 'gemini', id, mimeType: 'image/png' });

describe('latestMediaFacts', () => {
  it('merges the lines about each medium field by field, a later field replacing an earlier one', () => {
    const facts = latestMediaFacts([
      { sha256: a, refused: refused('anthropic') },
      { sha256: b, reference: reference('files/old') },
      { sha256: a, reference: reference('files/a') },
      { sha256: b, reference: reference('files/new') },
    ]);
    expect([...facts.entries()]).toStrictEqual([
      [a, { sha256: a, refused: refused('anthropic'), reference: reference('files/a') }],
      [b, { sha256: b, reference: reference('files/new') }],
    ]);
    expect(latestMediaFacts(undefined).size).toBe(0);
  });
});
