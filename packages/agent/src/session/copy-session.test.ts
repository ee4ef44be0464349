import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { failsWith } from '../../../../test/support/typed-errors.js';
import type { Message } from '../types.js';
import { copySession } from './copy-session.js';
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
});
