import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { failsWith } from '../../../../test/support/typed-errors.js';
import type { Message } from '../types.js';
import { createHash } from 'node:crypto';
import { sqliteAvailable, sqliteD1 } from '../../../../test/support/sqlite-d1.js';
import { copySession } from './copy-session.js';
import { D1SessionStore } from './d1-session-store.js';
import type { MediaFact } from './session-format.js';
import { JsonlSessionStore } from './jsonl-session-store.js';
import { openPGliteClient } from './pglite-client.js';
import { PostgresSessionStore } from './postgres-session-store.js';
import { SessionError } from './session-error.js';
import type { SessionStore, StoredSession } from './session-store.js';

const messages: Message[] = [
  { role: 'user', parts: [{ type: 'text', text: 'look at the chart' }] },
  { role: 'assistant', text: 'reading it', toolCalls: [] },
  { role: 'user', parts: [{ type: 'text', text: 'and the table' }] },
  { role: 'assistant', text: 'done', toolCalls: [] },
  { role: 'user', parts: [{ type: 'text', text: 'thanks' }] },
];

async function sourceSession(): Promise<StoredSession> {
  const store = new JsonlSessionStore(await mkdtemp(join(tmpdir(), 'glimpse-copy-src-')));
  let minute = 0;
  const session = await store.openSession('log.jsonl', {
    app: { name: 'test' },
    now: () => new Date(Date.UTC(2026, 0, 1, 12, minute++)),
  });
  for (const message of messages) await session.append(message);
  await session.close();
  return store.readSession('log.jsonl');
}

/** The first `count` entries of `session`, as an import killed after them left it. */
function beginning(session: StoredSession, count: number): StoredSession {
  return { ...session, entries: session.entries.slice(0, count), messages: session.messages.slice(0, count) };
}

const STORES: [string, () => Promise<SessionStore>][] = [
  ['JSONL', async () => new JsonlSessionStore(await mkdtemp(join(tmpdir(), 'glimpse-copy-dst-')))],
  ['PGlite', async () => PostgresSessionStore.open(await openPGliteClient(undefined), 'pglite:memory')],
];
if (await sqliteAvailable())
  STORES.push([
    'D1 and R2',
    async () => {
      const { db, bucket } = await sqliteD1();
      return D1SessionStore.open(db, bucket);
    },
  ]);

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const FACTS: MediaFact[] = [
  {
    sha256: sha('chart'),
    refused: { route: 'anthropic', code: 'E_MEDIA_REFUSED', action: 'placeholder', reason: 'Could not process image' },
  },
  { sha256: sha('table'), reference: { provider: 'anthropic', id: 'file_011', mimeType: 'image/png' } },
  { sha256: sha('chart'), reference: { provider: 'gemini', id: 'files/x', mimeType: 'image/png' } },
];

/** A log with media lines after entries 1 and 3 and one at its end, each with its own time. */
async function sourceWithMedia(): Promise<StoredSession> {
  const store = new JsonlSessionStore(await mkdtemp(join(tmpdir(), 'glimpse-copy-src-')));
  let minute = 0;
  const session = await store.openSession('log.jsonl', {
    app: { name: 'test' },
    now: () => new Date(Date.UTC(2026, 0, 1, 12, minute++)),
  });
  await session.append(messages[0]!);
  await session.appendMedia(FACTS[0]!);
  for (const message of messages.slice(1, 3)) await session.append(message);
  await session.appendMedia(FACTS[1]!);
  for (const message of messages.slice(3)) await session.append(message);
  await session.appendMedia(FACTS[2]!);
  await session.close();
  return store.readSession('log.jsonl');
}

/** Lines in log order, as \`glimpse session import\` must keep them: where each media line sat, and every time. */
function order(session: StoredSession): string[] {
  const lines = (session.media ?? []).map(({ at, afterEntries, sha256 }) => `${afterEntries}:${at}:${sha256}`);
  return [...lines, ...session.entries.map((entry, index) => `entry ${index}:${entry.at}`)];
}

describe('copySession', () => {
  for (const [name, open] of STORES) {
    it(`${name}: finishes an import killed mid-way, and refuses to double or overwrite one`, async () => {
      const source = await sourceSession();
      const store = await open();
      try {
        expect(await copySession(beginning(source, 3), store, 'run')).toBe(3);
        // Run again on the whole log: the two missing entries are appended, with their own times.
        expect(await copySession(source, store, 'run')).toBe(2);
        const copied = await store.readSession('run');
        expect(copied.messages).toStrictEqual(source.messages);
        expect(copied.entries.map((entry) => entry.at)).toStrictEqual(source.entries.map((entry) => entry.at));
        expect(copied.header.created).toBe(source.header.created);
        const twice = await failsWith(copySession(source, store, 'run'), SessionError, 'E_SESSION_STORE');
        expect(twice.message).toContain('with every entry of this log (imported before)');
        // Another session under the same id is never written into it.
        const other = { ...source, header: { ...source.header, created: '2025-01-01T00:00:00.000Z' } };
        const refused = await failsWith(copySession(other, store, 'run'), SessionError, 'E_SESSION_STORE');
        expect(refused.message).toContain('already holds a session "run"; import under another #ID');
        expect((await store.readSession('run')).entries).toHaveLength(5);
      } finally {
        await store.close();
      }
    });
  }

  for (const [name, open] of STORES) {
    it(`${name}: carries media lines in their places and times, also when an import stopped between them`, async () => {
      const source = await sourceWithMedia();
      expect(source.media?.map((line) => line.afterEntries)).toStrictEqual([1, 3, 5]);
      const store = await open();
      try {
        // Killed after the first media line and two entries: what it wrote is a beginning of the log.
        const stopped: StoredSession = {
          ...source,
          entries: source.entries.slice(0, 2),
          messages: source.messages.slice(0, 2),
          media: source.media!.slice(0, 1),
        };
        expect(await copySession(stopped, store, 'run')).toBe(2);
        expect(await copySession(source, store, 'run')).toBe(3);
        const copied = await store.readSession('run');
        expect(copied.messages).toStrictEqual(source.messages);
        expect(order(copied)).toStrictEqual(order(source));
        expect(copied.media?.map(({ sha256, refused, reference }) => ({ sha256, refused, reference }))).toStrictEqual(
          FACTS.map((fact) => ({ refused: undefined, reference: undefined, ...fact })),
        );
        // Every message copied but not the last media line: the import still has something to finish.
        const lastMissing = await open();
        try {
          await copySession({ ...source, media: source.media!.slice(0, 2) }, lastMissing, 'run');
          expect(await copySession(source, lastMissing, 'run')).toBe(0);
          expect(order(await lastMissing.readSession('run'))).toStrictEqual(order(source));
          await failsWith(copySession(source, lastMissing, 'run'), SessionError, 'E_SESSION_STORE');
        } finally {
          await lastMissing.close();
        }
        // A different fact at the same place is another session.
        const other = { ...source, media: [{ ...source.media![0]!, sha256: sha('other') }, ...source.media!.slice(1)] };
        await failsWith(copySession(other, store, 'run'), SessionError, 'E_SESSION_STORE');
      } finally {
        await store.close();
      }
    });
  }
});
