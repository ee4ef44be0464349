// The session stores the agent-loop tests run on, each on one place opened anew per step as a process and its
// restart would (`open()` gives a new store object over the same log), and one run over a session as such a process
// makes it: the store opened, the session resumed, runAgent, both closed.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentRun, type RunAgentInput, runAgent } from '../../packages/agent/src/index.js';
import { D1SessionStore } from '../../packages/agent/src/session/d1-session-store.js';
import { JsonlSessionStore } from '../../packages/agent/src/session/jsonl-session-store.js';
import { openPgClient } from '../../packages/agent/src/session/pg-client.js';
import { openPGliteClient } from '../../packages/agent/src/session/pglite-client.js';
import { PostgresSessionStore } from '../../packages/agent/src/session/postgres-session-store.js';
import type { SessionStore } from '../../packages/agent/src/session/session-store.js';
import { DATABASE_URL, postgresAvailable } from './postgres-url.js';
import { sqliteAvailable, sqliteD1 } from './sqlite-d1.js';

export type OpenStore = () => Promise<SessionStore>;
/** Makes a new place (a directory, a database) and answers how to open a store on it. */
export type SessionPlace = () => Promise<OpenStore>;

const made: string[] = [];
const directory = async (prefix: string) => {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
};

/** Removes the directories the places made; for `afterEach`. */
export async function removeSessionPlaces(): Promise<void> {
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
}

/** A JSONL log in a new directory. */
export const jsonlPlace: SessionPlace = async () => {
  const dir = await directory('glimpse-session-');
  return async () => new JsonlSessionStore(dir);
};

/** JSONL, PGlite, D1 and R2 over node:sqlite (when this Node has it) and a Postgres server (when DATABASE_URL names one). */
export const SESSION_PLACES: [name: string, place: SessionPlace][] = [
  ['JSONL', jsonlPlace],
  [
    'PGlite',
    async () => {
      const dir = await directory('glimpse-session-pglite-');
      return async () => PostgresSessionStore.open(await openPGliteClient(dir), `pglite:${dir}`);
    },
  ],
  ...((await sqliteAvailable())
    ? [
        [
          'D1 and R2 (node:sqlite)',
          async () => {
            const { db, bucket } = await sqliteD1();
            return async () => D1SessionStore.open(db, bucket);
          },
        ] as [string, SessionPlace],
      ]
    : []),
  ...(postgresAvailable()
    ? [
        [
          'Postgres server',
          async () => async () => PostgresSessionStore.open(await openPgClient(DATABASE_URL!, 'test'), 'test'),
        ] as [string, SessionPlace],
      ]
    : []),
];

/**
 * One run over session `id` as a new process makes it: a store from `open`, the session opened (its resumed messages
 * the run's history), runAgent with it, then the session and the store closed, also when the run throws.
 */
export async function runInSession(
  open: OpenStore,
  id: string,
  input: Omit<RunAgentInput, 'session' | 'history'>,
): Promise<AgentRun> {
  const store = await open();
  try {
    const session = await store.openSession(id);
    try {
      return await runAgent({ ...input, history: session.resumed?.messages ?? [], session });
    } finally {
      await session.close();
    }
  } finally {
    await store.close();
  }
}

/** The session's `media` lines as the store reads them back, through a store opened for that. */
export async function mediaLines(open: OpenStore, id: string) {
  const store = await open();
  try {
    return (await store.readSession(id)).media ?? [];
  } finally {
    await store.close();
  }
}
