import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { denseScreenshot } from '../../../../test/support/dense-screenshot.js';
import { createFitCache, fitConversation } from '../fit-conversation.js';
import type { DocumentPart, FileReference, ImagePart, Message } from '../types.js';
import { createMemoryMediaReferences } from './media-references.js';
import type { MediaUpload } from './media-upload.js';
import { resolveFileReferences } from './resolve-file-references.js';

const b64 = (text: string) => Buffer.from(text).toString('base64');
const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const image = (text: string): ImagePart => ({ type: 'image', mediaType: 'image/png', data: b64(text) });
const pdf: DocumentPart = {
  type: 'document',
  mediaType: 'application/pdf',
  data: b64('%PDF-report'),
  filename: 'r.pdf',
};

/** An uploader that records what it was given and answers with numbered ids (Gemini-like when `expires`). */
function recorder(expiresInMs?: number) {
  const uploads: MediaUpload[] = [];
  const upload = async (media: MediaUpload): Promise<FileReference> => {
    uploads.push(media);
    return {
      provider: 'anthropic',
      id: `file_${uploads.length}`,
      mimeType: media.mediaType,
      ...(expiresInMs !== undefined && { expiresAt: new Date(Date.now() + expiresInMs).toISOString() }),
    };
  };
  return { uploads, upload };
}

describe('resolveFileReferences', () => {
  it('uploads each medium once, by the sha256 of its bytes, and a second run with the same memory not at all', async () => {
    const { uploads, upload } = recorder();
    const memory = createMemoryMediaReferences();
    const resolve = resolveFileReferences({ route: 'anthropic', upload, memory });
    const [a, again, b] = await Promise.all([resolve(image('one')), resolve(image('one')), resolve(image('two'))]);
    // The two uploads run side by side and may start in either order: ids follow the order they started.
    expect(uploads.map((media) => media.sha256).sort()).toEqual([sha('one'), sha('two')].sort());
    const idOf = (text: string) => `file_${uploads.findIndex((media) => media.sha256 === sha(text)) + 1}`;
    expect(a).toEqual({ reference: { provider: 'anthropic', id: idOf('one'), mimeType: 'image/png' } });
    expect(again).toEqual(a);
    expect(b).toEqual({ reference: { provider: 'anthropic', id: idOf('two'), mimeType: 'image/png' } });
    const one = uploads.find((media) => media.sha256 === sha('one'))!;
    expect(Buffer.from(one.bytes).toString()).toBe('one');
    expect(one.filename).toBe(`${sha('one').slice(0, 16)}.png`);
    expect(memory.get(sha('two'), 'anthropic')?.id).toBe(idOf('two'));
    const later = resolveFileReferences({ route: 'anthropic', upload, memory });
    expect(await later(image('one'))).toEqual(a);
    expect(uploads).toHaveLength(2);
  });

  it('uploads again a reference that expires within the hour, not one that lives longer', async () => {
    const soon = recorder(30 * 60 * 1000);
    const memory = createMemoryMediaReferences();
    await resolveFileReferences({ route: 'anthropic', upload: soon.upload, memory })(image('one'));
    await resolveFileReferences({ route: 'anthropic', upload: soon.upload, memory })(image('one'));
    expect(soon.uploads).toHaveLength(2);
    const lasting = recorder(47 * 60 * 60 * 1000);
    const kept = createMemoryMediaReferences();
    await resolveFileReferences({ route: 'anthropic', upload: lasting.upload, memory: kept })(image('one'));
    await resolveFileReferences({ route: 'anthropic', upload: lasting.upload, memory: kept })(image('one'));
    expect(lasting.uploads).toHaveLength(1);
  });

  it('a failed upload (thrown or rejected) leaves the medium inline with the reason, and is not tried again in the run', async () => {
    let calls = 0;
    const resolve = resolveFileReferences({
      route: 'gemini',
      upload: () => {
        calls++;
        throw new Error('503 the file store is down');
      },
      memory: createMemoryMediaReferences(),
    });
    expect(await resolve(image('one'))).toEqual({ failure: '503 the file store is down', provider: 'gemini' });
    expect(await resolve(image('one'))).toEqual({ failure: '503 the file store is down', provider: 'gemini' });
    expect(calls).toBe(1);
  });

  it('forget tells the memory the reference expired now, so a later run over it uploads again; only its newest', async () => {
    const { uploads, upload } = recorder();
    const puts: [string, FileReference][] = [];
    const inner = createMemoryMediaReferences();
    const memory = {
      get: inner.get,
      put: (sha256: string, reference: FileReference) => {
        puts.push([sha256, reference]);
        return inner.put(sha256, reference);
      },
    };
    const at = Date.parse('2026-12-04T01:00:00.000Z');
    const first = resolveFileReferences({ route: 'anthropic', upload, memory, now: () => at });
    expect(await first(image('one'))).toEqual({
      reference: { provider: 'anthropic', id: 'file_1', mimeType: 'image/png' },
    });
    await first.forget({ provider: 'anthropic', id: 'file_1', mimeType: 'image/png' });
    expect(puts.slice(1)).toEqual([
      [
        sha('one'),
        { provider: 'anthropic', id: 'file_1', mimeType: 'image/png', expiresAt: '2026-12-04T01:00:00.000Z' },
      ],
    ]);
    // A second run over the same memory (a resume) uploads it again instead of sending file_1.
    const second = resolveFileReferences({ route: 'anthropic', upload, memory, now: () => at });
    expect(await second(image('one'))).toMatchObject({ reference: { id: 'file_2' } });
    expect(uploads).toHaveLength(2);
    // file_1 is no longer its medium's newest, and a reference this run never sent is not known: no more puts.
    await second.forget({ provider: 'anthropic', id: 'file_1', mimeType: 'image/png' });
    await second.forget({ provider: 'anthropic', id: 'file_9', mimeType: 'image/png' });
    expect(puts.map(([, reference]) => reference.id)).toEqual(['file_1', 'file_1', 'file_2']);
    expect(inner.get(sha('one'), 'anthropic')?.id).toBe('file_2');
  });

  it('a forget whose put fails does not reject, and the run still uploads the medium again', async () => {
    const { uploads, upload } = recorder();
    const inner = createMemoryMediaReferences();
    let full = false;
    const memory = {
      get: inner.get,
      put: (sha256: string, reference: FileReference) => {
        if (full) throw new Error('ENOSPC: the log is full');
        return inner.put(sha256, reference);
      },
    };
    const resolve = resolveFileReferences({ route: 'anthropic', upload, memory });
    await resolve(image('one'));
    full = true;
    await expect(
      resolve.forget({ provider: 'anthropic', id: 'file_1', mimeType: 'image/png' }),
    ).resolves.toBeUndefined();
    full = false;
    expect(await resolve(image('one'))).toMatchObject({ reference: { id: 'file_2' } });
    expect(uploads).toHaveLength(2);
  });

  it('takes only what the route names by reference: none on Bedrock and Ollama, PDFs only on Chat Completions', async () => {
    const { uploads, upload } = recorder();
    const memory = createMemoryMediaReferences();
    expect(await resolveFileReferences({ route: 'bedrock', upload, memory })(image('one'))).toBeUndefined();
    expect(await resolveFileReferences({ route: 'ollama', upload, memory })(image('one'))).toBeUndefined();
    const chat = resolveFileReferences({ route: 'openai-chat', upload, memory });
    expect(await chat(image('one'))).toBeUndefined();
    expect(await chat(pdf)).toMatchObject({ reference: { id: 'file_1' } });
    expect(uploads.map((media) => media.filename)).toEqual(['r.pdf']);
  });
});

describe('fitConversation with references', () => {
  let shots: ImagePart[] = [];
  beforeAll(async () => {
    shots = await Promise.all(
      [1, 2, 3].map(async (seed) => ({
        type: 'image' as const,
        mediaType: 'image/png' as const,
        data: (await denseScreenshot({ seed })).toString('base64'),
        width: 1500,
        height: 1000,
      })),
    );
  }, 30_000);
  const conversation = (): Message[] => [
    { role: 'user', parts: [{ type: 'text', text: 'look' }, ...shots] },
    { role: 'assistant', text: 'ok', toolCalls: [] },
    { role: 'user', parts: [{ type: 'text', text: 'again' }] },
  ];

  it('a referenced image costs its reference’s bytes: under a cap its base64 would pass, nothing is re-fitted', async () => {
    const { upload, uploads } = recorder();
    const references = resolveFileReferences({ route: 'anthropic', upload, memory: createMemoryMediaReferences() });
    const fitted = await fitConversation({
      messages: conversation(),
      provider: 'anthropic',
      model: 'claude-sonnet-4-6',
      maxRequestBytes: 100_000, // the three PNGs take ~4 MB of base64
      references,
      cache: createFitCache(),
    });
    expect(fitted.warnings).toEqual([]);
    expect(fitted.requestBytes).toBeLessThan(2_000);
    const sent = fitted.messages[0]!.role === 'user' ? fitted.messages[0]!.parts.slice(1) : [];
    // Each part names the upload of its own bytes (the three uploads may start in any order).
    const uploadedAs = (part: (typeof sent)[number]) =>
      part.type === 'text' ? undefined : uploads[Number(part.reference?.id.slice('file_'.length)) - 1]?.bytes;
    expect(sent.map((part) => Buffer.from(uploadedAs(part) ?? []).toString('base64'))).toEqual(
      shots.map((shot) => shot.data),
    );
    // The outgoing copy keeps the bytes it was fitted to (tokens, caps); the history is untouched.
    expect(sent.map((part) => part.type !== 'text' && part.data)).toEqual(shots.map((shot) => shot.data));
  });

  it('an upload that fails sends the image inline with a media-reference-failed warning, never a failed fit', async () => {
    const references = resolveFileReferences({
      route: 'anthropic',
      upload: async () => Promise.reject(new Error('413 file too large')),
      memory: createMemoryMediaReferences(),
    });
    const fitted = await fitConversation({ messages: conversation(), provider: 'anthropic', references });
    expect(fitted.warnings.filter((warning) => warning.type === 'media-reference-failed')).toEqual(
      shots.map(() => ({
        type: 'media-reference-failed',
        provider: 'anthropic',
        mediaType: 'image/png',
        messageIndex: 0,
        message:
          "the upload of this image/png to anthropic's file store failed (413 file too large): it is sent inline",
      })),
    );
    const sent = fitted.messages[0]!.role === 'user' ? fitted.messages[0]!.parts : [];
    expect(sent.filter((part) => part.type === 'image' && part.reference === undefined)).toHaveLength(3);
  });

  it.each([
    ['no id', { provider: 'anthropic', mimeType: 'image/png' }, 'id missing'],
    ['an empty id', { provider: 'anthropic', id: '', mimeType: 'image/png' }, 'id ""'],
    ['an empty uri', { provider: 'gemini', id: 'files/a', uri: '', mimeType: 'image/png' }, 'uri ""'],
    [
      'an expiry that is no time',
      { provider: 'gemini', id: 'files/a', uri: 'u', mimeType: 'image/png', expiresAt: 'soon' },
      'expiry "soon" is not a time',
    ],
  ])(
    'an uploader answering with %s fails the upload (inline, the reason said), and nothing is kept',
    async (_, answer, what) => {
      const put: FileReference[] = [];
      let uploads = 0;
      const resolve = resolveFileReferences({
        route: 'anthropic',
        upload: async () => {
          uploads++;
          return answer as FileReference;
        },
        memory: { get: () => undefined, put: (_sha, reference) => void put.push(reference) },
      });
      const provider = answer.provider;
      const expected = {
        failure: `the ${provider} file store answered without a usable reference (${what})`,
        provider: 'anthropic',
      };
      expect(await resolve(image('one'))).toEqual(expected);
      expect(await resolve(image('one'))).toEqual(expected); // not tried again in the run
      expect(uploads).toBe(1);
      expect(put).toEqual([]);
    },
  );

  it('a put that fails (a log whose disk is full) leaves the medium inline with the reason, and no unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      for (const put of [
        async () => Promise.reject(new Error('ENOSPC: no space left on device')),
        () => {
          throw new Error('ENOSPC: no space left on device');
        },
      ]) {
        const { upload } = recorder();
        const resolve = resolveFileReferences({ route: 'anthropic', upload, memory: { get: () => undefined, put } });
        const expected = {
          failure: 'the reference file_1 could not be kept: ENOSPC: no space left on device',
          provider: 'anthropic',
        };
        expect(await Promise.all([resolve(image('one')), resolve(image('one'))])).toEqual([expected, expected]);
        expect(await resolve(image('one'))).toEqual(expected);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    expect(unhandled).toEqual([]);
  });
});
