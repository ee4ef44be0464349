import { createHash } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_URL, postgresAvailable } from '../../../../test/support/postgres-url.js';
import { sqliteAvailable, sqliteD1 } from '../../../../test/support/sqlite-d1.js';
import { failsWith } from '../../../../test/support/typed-errors.js';
import type { Message } from '../types.js';
import { D1SessionStore } from './d1-session-store.js';
import { JsonlSessionStore } from './jsonl-session-store.js';
import { openPgClient } from './pg-client.js';
import { openPGliteClient } from './pglite-client.js';
import { PostgresSessionStore } from './postgres-session-store.js';
import { SessionError } from './session-error.js';
import type { MediaFact } from './session-format.js';
import type { SessionStore } from './session-store.js';
import type { SqlClient } from './sql-client.js';

let red: string;
let noise: string;

beforeAll(async () => {
  red = (
    await sharp({ create: { width: 16, height: 8, channels: 3, background: '#c04020' } })
      .png()
      .toBuffer()
  ).toString('base64');
  const pixels = Buffer.alloc(64 * 48 * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 2654435761) >>> 24;
  noise = (
    await sharp(pixels, { raw: { width: 64, height: 48, channels: 3 } })
      .jpeg()
      .toBuffer()
  ).toString('base64');
});

function conversation(): Message[] {
  return [
    { role: 'user', parts: [{ type: 'text', text: 'look at these' }] },
    {
      role: 'assistant',
      text: '',
      toolCalls: [
        { id: 'a', name: 'view_file', arguments: { path: 'red.png' } },
        { id: 'b', name: 'view_file', arguments: { path: 'noise.jpg' }, signature: 'sig' },
      ],
    },
    {
      role: 'toolResult',
      toolCallId: 'a',
      toolName: 'view_file',
      isError: false,
      parts: [
        { type: 'text', text: 'red.png' },
        { type: 'image', mediaType: 'image/png', data: red, width: 16, height: 8 },
        { type: 'image', mediaType: 'image/png', data: red },
      ],
    },
    {
      role: 'toolResult',
      toolCallId: 'b',
      toolName: 'view_file',
      isError: true,
      parts: [{ type: 'image', mediaType: 'image/jpeg', data: noise, width: 64, height: 48 }],
    },
    { role: 'user', parts: [{ type: 'image', mediaType: 'image/png', data: red }] },
    { role: 'assistant', text: 'a red square and noise', toolCalls: [] },
  ];
}

let counter = 0;
const freshId = () => `session-${process.pid}-${Date.now()}-${counter++}`;

/** The behaviour every store shares; `sql` is the database a Postgres store writes, for looking inside it. */
function storeContract(name: string, setup: () => Promise<{ store: SessionStore; sql?: SqlClient }>) {
  describe(name, () => {
    let store: SessionStore;
    let sql: SqlClient | undefined;
    beforeAll(async () => {
      ({ store, sql } = await setup());
    }, 60_000);
    afterAll(() => store?.close());

    it('reads back every entry as appended, with the header it was opened with', async () => {
      const id = freshId();
      const session = await store.openSession(id, { app: { name: 'test', n: 1 } });
      expect(session.resumed).toBeUndefined();
      for (const message of conversation()) await session.append(message);
      await session.close();
      const read = await store.readSession(id);
      expect(read.messages).toStrictEqual(conversation());
      expect(read.header).toMatchObject({
        type: 'header',
        format: 'glimpse-session',
        version: 1,
        app: { name: 'test', n: 1 },
      });
      expect(read.entries.map((entry) => Number.isNaN(Date.parse(entry.at)))).toStrictEqual(
        conversation().map(() => false),
      );
    });

    it('resumes a session: the open returns it, new entries follow', async () => {
      const id = freshId();
      const first = await store.openSession(id, { app: { run: 1 } });
      await first.append(conversation()[0]!);
      await first.close();
      const second = await store.openSession(id, { app: { run: 2 } });
      expect(second.resumed?.messages).toStrictEqual([conversation()[0]]);
      expect(second.resumed?.header.app).toStrictEqual({ run: 1 });
      for (const message of conversation().slice(1)) await second.append(message);
      await second.close();
      expect((await store.readSession(id)).messages).toStrictEqual(conversation());
    });

    it('keeps parallel appends whole and in call order', async () => {
      const id = freshId();
      const session = await store.openSession(id);
      const messages = Array.from(
        { length: 12 },
        (_, i): Message => ({
          role: 'toolResult',
          toolCallId: `c${i}`,
          toolName: 'view_file',
          isError: false,
          parts: [
            { type: 'text', text: `result ${i}` },
            i % 2
              ? { type: 'image', mediaType: 'image/png', data: red }
              : { type: 'image', mediaType: 'image/jpeg', data: noise },
          ],
        }),
      );
      await Promise.all(messages.map((message) => session.append(message)));
      await session.close();
      expect((await store.readSession(id)).messages).toStrictEqual(messages);
    });

    it('lists its sessions with their entry counts', async () => {
      const id = freshId();
      const session = await store.openSession(id);
      await session.append(conversation()[0]!);
      await session.append(conversation()[5]!);
      await session.close();
      expect((await store.listSessions()).find((listed) => listed.id === id)).toMatchObject({ id, entries: 2 });
    });

    it('refuses appends after close, and names a session it does not hold', async () => {
      const session = await store.openSession(freshId());
      await session.close();
      await failsWith(session.append(conversation()[0]!), SessionError, 'E_SESSION_CLOSED');
      const error = await failsWith(store.readSession(`${freshId()}-missing`), SessionError, 'E_SESSION_STORE');
      expect(error.message).toContain('missing');
    });

    it('keeps media lines checked and in their place among the entries, and gives them back on resume', async () => {
      const id = freshId();
      const sha256 = createHash('sha256').update(Buffer.from(red, 'base64')).digest('hex');
      const refused: MediaFact = {
        sha256,
        refused: {
          route: 'anthropic',
          code: 'E_MEDIA_REFUSED',
          action: 'placeholder',
          reason: 'messages.2.content.1.image.source.base64: Could not process image',
        },
      };
      const reference: MediaFact = {
        sha256,
        reference: {
          provider: 'gemini',
          id: 'files/abc-123',
          uri: 'https://generativelanguage.googleapis.com/v1beta/files/abc-123',
          mimeType: 'image/png',
          expiresAt: '2026-12-05T15:00:00.000Z',
        },
      };
      const session = await store.openSession(id);
      for (const message of conversation().slice(0, 3)) await session.append(message);
      // Queued with messages: they land in call order.
      await Promise.all([
        session.appendMedia(refused),
        session.append(conversation()[3]!),
        session.appendMedia(reference),
      ]);
      // What the format does not hold is refused before anything is written, and the session goes on.
      await failsWith(session.appendMedia({ ...refused, sha256: 'ABC' }), SessionError, 'E_SESSION_CORRUPT');
      await failsWith(session.appendMedia({ sha256 }), SessionError, 'E_SESSION_CORRUPT');
      const badAction = { sha256, refused: { ...refused.refused!, action: 'drop' } } as unknown as MediaFact;
      await failsWith(session.appendMedia(badAction), SessionError, 'E_SESSION_CORRUPT');
      // A reader passes over a provider it does not know; a writer names only those it does.
      const bedrock = { sha256, reference: { ...reference.reference!, provider: 'bedrock' } } as unknown as MediaFact;
      await failsWith(session.appendMedia(bedrock), SessionError, 'E_SESSION_CORRUPT');
      await session.append(conversation()[4]!);
      await session.close();
      await failsWith(session.appendMedia(refused), SessionError, 'E_SESSION_CLOSED');

      const read = await store.readSession(id);
      expect(read.messages).toStrictEqual(conversation().slice(0, 5));
      const lines = read.media ?? [];
      expect(lines.map(({ at, ...line }) => ({ ...line, line: undefined }))).toStrictEqual([
        { type: 'media', ...refused, afterEntries: 3, line: undefined },
        { type: 'media', ...reference, afterEntries: 4, line: undefined },
      ]);
      expect(lines.map((line) => new Date(line.at).toISOString() === line.at)).toStrictEqual([true, true]);
      const resumed = await store.openSession(id);
      expect(resumed.resumed?.media?.map((line) => line.afterEntries)).toStrictEqual([3, 4]);
      await resumed.close();
      expect((await store.listSessions()).find((listed) => listed.id === id)).toMatchObject({ entries: 5 });
    });

    if (name === 'PGlite' || name === 'Postgres server')
      it('holds each unique medium once, as its bytes, however many entries and sessions refer to it', async () => {
        const ids = [freshId(), freshId()];
        for (const id of ids) {
          const session = await store.openSession(id);
          for (const message of conversation()) await session.append(message);
          await session.close();
        }
        const rows = await sql!.query<{ sha256: string; media_type: string; bytes: Uint8Array; length: number }>(
          `SELECT m.sha256, m.media_type, m.bytes, octet_length(m.bytes) AS length FROM glimpse_media m
            WHERE m.sha256 IN (SELECT sha256 FROM glimpse_entry_media WHERE session_id = ANY($1)) ORDER BY length`,
          [ids],
        );
        const expected = [Buffer.from(red, 'base64'), Buffer.from(noise, 'base64')].sort((a, b) => a.length - b.length);
        expect(rows.map((row) => Buffer.from(row.bytes))).toStrictEqual(expected);
        expect(rows.map((row) => row.length)).toStrictEqual(expected.map((bytes) => bytes.length));
        expect(rows.map((row) => row.media_type).sort()).toStrictEqual(['image/jpeg', 'image/png']);
        // Entries hold references only: no base64 in the entries table.
        const [inline] = await sql!.query<{ count: string | number }>(
          `SELECT count(*) AS count FROM glimpse_entries e, jsonb_array_elements(e.entry -> 'message' -> 'content') part
            WHERE e.session_id = ANY($1) AND part ? 'data'`,
          [ids],
        );
        expect(Number(inline!.count)).toBe(0);
        // The database refuses bytes that do not hash to their key.
        await expect(
          sql!.query(`INSERT INTO glimpse_media (sha256, media_type, bytes) VALUES ($1, 'image/png', '\\x00')`, [
            '0'.repeat(64),
          ]),
        ).rejects.toThrow(/check constraint/);
      });
  });
}

storeContract('JSONL directory', async () => ({
  store: new JsonlSessionStore(await mkdtemp(join(tmpdir(), 'glimpse-store-jsonl-'))),
}));

storeContract('PGlite', async () => {
  const sql = await openPGliteClient(await mkdtemp(join(tmpdir(), 'glimpse-store-pglite-')));
  return { store: await PostgresSessionStore.open(sql, 'pglite:test'), sql };
});

if (await sqliteAvailable()) {
  storeContract('D1 and R2 (node:sqlite)', async () => {
    const { db, bucket } = await sqliteD1();
    return { store: await D1SessionStore.open(db, bucket) };
  });
}

if (postgresAvailable()) {
  storeContract('Postgres server', async () => {
    const sql = await openPgClient(DATABASE_URL!, 'postgres test server');
    return { store: await PostgresSessionStore.open(sql, 'postgres test server'), sql };
  });
}
