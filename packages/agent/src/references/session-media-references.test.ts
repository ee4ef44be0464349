import { describe, expect, it } from 'vitest';
import { referenceOfLine, sessionMediaReferences, type MediaReferenceLine } from './session-media-references.js';

const SHA = 'ab'.repeat(32);
const OTHER = 'cd'.repeat(32);
const gemini = {
  provider: 'gemini' as const,
  id: 'files/abc',
  uri: 'https://generativelanguage.googleapis.com/v1beta/files/abc',
  mimeType: 'image/png',
  expiresAt: '2026-12-05T15:00:00.000Z',
};

describe('session media references', () => {
  it('reads the media lines of a log (the newest per hash and provider), passing over every other line', () => {
    const references = sessionMediaReferences({
      lines: [
        { type: 'session', version: 3 },
        { role: 'user', content: [] },
        { type: 'media', at: '2026-12-03T15:00:00.000Z', sha256: SHA, reference: { ...gemini, id: 'files/old' } },
        { type: 'media', at: '2026-12-03T15:01:00.000Z', sha256: SHA, reference: gemini },
        { type: 'media', at: '2026-12-03T15:02:00.000Z', sha256: OTHER, refused: { code: 'E_MEDIA_REFUSED' } },
        {
          type: 'media',
          at: '2026-12-03T15:03:00.000Z',
          sha256: OTHER,
          reference: { provider: 'vertex', id: 'x', mimeType: 'image/png' },
        },
      ],
      append: () => {},
    });
    expect(references.get(SHA, 'gemini')).toEqual(gemini);
    expect(references.get(SHA, 'anthropic')).toBeUndefined();
    expect(references.get(OTHER, 'gemini')).toBeUndefined();
  });

  it('appends one line per upload, in the log’s shape, and remembers it', async () => {
    const written: MediaReferenceLine[] = [];
    const references = sessionMediaReferences({
      lines: [],
      append: (line) => {
        written.push(line);
      },
      now: () => new Date('2026-12-03T15:04:00.000Z'),
    });
    await references.put(SHA, { provider: 'anthropic', id: 'file_1', mimeType: 'image/png' });
    expect(written).toEqual([
      {
        type: 'media',
        at: '2026-12-03T15:04:00.000Z',
        sha256: SHA,
        reference: { provider: 'anthropic', id: 'file_1', mimeType: 'image/png' },
      },
    ]);
    expect(references.get(SHA, 'anthropic')?.id).toBe('file_1');
    // What it wrote, it reads back.
    expect(referenceOfLine(JSON.parse(JSON.stringify(written[0])))).toEqual({
      sha256: SHA,
      reference: written[0]!.reference,
    });
  });

  it.each([
    ['a short hash', { type: 'media', at: 'x', sha256: 'abc', reference: gemini }],
    ['no id', { type: 'media', sha256: SHA, reference: { ...gemini, id: '' } }],
    ['a bad expiry', { type: 'media', sha256: SHA, reference: { ...gemini, expiresAt: 'soon' } }],
    ['a numeric uri', { type: 'media', sha256: SHA, reference: { ...gemini, uri: 7 } }],
  ])('a line with %s is no reference', (_, line) => {
    expect(referenceOfLine(line)).toBeUndefined();
  });
});
