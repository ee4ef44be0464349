import { describe, expect, it } from 'vitest';
import type { MediaFact } from '../session/session-format.js';
import type { StoredMediaLine, StoredSession } from '../session/session-store.js';
import type { FileReference } from '../types.js';
import { deleteSessionUploads } from './delete-session-uploads.js';
import { sessionMediaReferences } from './session-media-references.js';

const A = 'aa'.repeat(32);
const B = 'bb'.repeat(32);
const NOW = new Date('2026-12-03T20:00:00.000Z');
const ref = (id: string, extra: Partial<FileReference> = {}): FileReference => ({
  provider: 'anthropic',
  id,
  mimeType: 'image/png',
  ...extra,
});
const line = (sha256: string, reference: FileReference): StoredMediaLine => ({
  type: 'media',
  at: '2026-12-03T19:00:00.000Z',
  sha256,
  reference,
  afterEntries: 0,
});

/** An open session over these media lines whose appended facts are kept in `written`. */
function openSession(media: StoredMediaLine[]) {
  const written: MediaFact[] = [];
  const resumed = { media } as StoredSession;
  return { written, session: { resumed, appendMedia: async (fact: MediaFact) => void written.push(fact) } };
}

describe('deleteSessionUploads with an open session', () => {
  it('writes the newest reference of each medium it deleted or found gone as expiring now; a failure writes nothing', async () => {
    const { written, session } = openSession([
      line(A, ref('file_old')), // superseded by file_new: deleted, but the log no longer sends it
      line(A, ref('file_new')),
      line(B, ref('file_b')),
      line(B, { ...ref('files/g'), provider: 'gemini', uri: 'https://g/files/g', expiresAt: '2026-12-05T00:00:00Z' }),
    ]);
    const answers: Record<string, 'deleted' | 'gone' | Error> = {
      file_old: 'deleted',
      file_new: 'gone',
      file_b: new Error('network down'),
      'files/g': 'deleted',
    };
    const deleteMedia = async ({ id }: FileReference) => {
      const answer = answers[id]!;
      if (answer instanceof Error) throw answer;
      return answer;
    };
    const result = await deleteSessionUploads(
      session,
      { anthropic: { deleteMedia }, gemini: { deleteMedia } },
      { now: () => NOW },
    );
    expect(result.deleted.map(({ id }) => id)).toEqual(['file_old', 'files/g']);
    expect(result.gone.map(({ id }) => id)).toEqual(['file_new']);
    expect(result.failed.map(({ reference }) => reference.id)).toEqual(['file_b']);
    expect(written).toStrictEqual([
      { sha256: A, reference: ref('file_new', { expiresAt: NOW.toISOString() }) },
      {
        sha256: B,
        reference: { ...ref('files/g'), provider: 'gemini', uri: 'https://g/files/g', expiresAt: NOW.toISOString() },
      },
    ]);

    // Read back as a resume does: the expired ones are no longer live, the failed one still is.
    const references = sessionMediaReferences({
      lines: [...session.resumed.media!, ...written.map((fact) => ({ type: 'media', at: NOW.toISOString(), ...fact }))],
      append: () => {},
    });
    expect(references.get(A, 'anthropic')?.expiresAt).toBe(NOW.toISOString());
    expect(references.get(B, 'anthropic')).toStrictEqual(ref('file_b'));
    expect(references.get(B, 'gemini')?.expiresAt).toBe(NOW.toISOString());
  });

  it('writes no second line for a reference the log already says is expired', async () => {
    const { written, session } = openSession([line(A, ref('file_1', { expiresAt: '2026-12-03T19:30:00.000Z' }))]);
    const result = await deleteSessionUploads(
      session,
      { anthropic: { deleteMedia: async () => 'gone' } },
      { now: () => NOW },
    );
    expect(result.gone).toHaveLength(1);
    expect(written).toEqual([]);
  });
});
