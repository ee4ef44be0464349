import { spawn } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DATABASE_URL, postgresAvailable } from '../../../../test/support/postgres-url.js';
import { failsWith, throwsWith } from '../../../../test/support/typed-errors.js';
import { JsonlSessionStore } from './jsonl-session-store.js';
import { openSessionStore } from './open-session-store.js';
import { PGLITE_LOCK_FILE } from './pglite-directory-lock.js';
import { SessionError } from './session-error.js';
import { parseSessionLocation } from './session-location.js';

/** A port on 127.0.0.1 nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('parseSessionLocation', () => {
  it('reads a JSONL path, pglite:DIR#ID and postgres://…#ID', () => {
    expect(parseSessionLocation('logs/run#1.jsonl')).toStrictEqual({ kind: 'jsonl', path: 'logs/run#1.jsonl' });
    expect(parseSessionLocation('pglite:/var/glimpse#demo')).toStrictEqual({
      kind: 'pglite',
      dataDir: '/var/glimpse',
      id: 'demo',
      location: 'pglite:/var/glimpse',
    });
    expect(parseSessionLocation('postgres://me:s3cret@db.local:5433/agents#run%2F7')).toStrictEqual({
      kind: 'postgres',
      connectionString: 'postgres://me:s3cret@db.local:5433/agents',
      id: 'run/7',
      location: 'postgres://me:***@db.local:5433/agents',
    });
    expect(parseSessionLocation('postgresql://h/db#x')).toMatchObject({ kind: 'postgres', id: 'x' });
    // Schemes are case-insensitive.
    expect(parseSessionLocation('POSTGRES://h/db#x')).toMatchObject({
      kind: 'postgres',
      connectionString: 'postgres://h/db',
    });
    expect(parseSessionLocation('PGlite:/var/glimpse#demo')).toMatchObject({ kind: 'pglite', dataDir: '/var/glimpse' });
  });

  it('refuses a database location without a session id, database or host, never showing the password', () => {
    for (const [value, reason] of [
      ['pglite:/tmp/x', 'names no session'],
      ['pglite:#id', 'directory is empty'],
      ['postgres://me:s3cret@host/db', 'names no session'],
      ['postgres://me:s3cret@host#id', 'names no database'],
      ['postgres://me:s3cret@:5432/db#id', 'not a URL'],
      ['postgress://me:s3cret@host/db#id', 'postgress:// is no store glimpse knows'],
      ['mysql://me:s3cret@host/db#id', 'mysql:// is no store glimpse knows'],
    ] as const) {
      const error = throwsWith(() => parseSessionLocation(value), SessionError, 'E_SESSION_STORE');
      expect(error.message).toContain(reason);
      expect(error.message).toContain('expected a JSONL file path, pglite:DIR#ID, or postgres://');
      expect(error.message).not.toContain('s3cret');
    }
  });
});

describe('openSessionStore', () => {
  it('opens a JSONL path as the store of its directory, the file name the id', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'glimpse-open-'));
    const { store, id } = await openSessionStore(parseSessionLocation(join(dir, 'run.jsonl')));
    expect(store).toBeInstanceOf(JsonlSessionStore);
    expect([store.location, id]).toStrictEqual([dir, 'run.jsonl']);
  });

  it('says to create a missing PGlite directory, and refuses a file in its place', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'glimpse-open-'));
    const missing = await failsWith(
      openSessionStore(parseSessionLocation(`pglite:${dir}/nope#s`)),
      SessionError,
      'E_SESSION_STORE',
    );
    expect(missing.message).toContain(`${dir}/nope does not exist; create it (mkdir -p`);
    await writeFile(join(dir, 'file'), 'x');
    const file = await failsWith(openSessionStore(parseSessionLocation(`pglite:${dir}/file#s`)), SessionError);
    expect(file.message).toContain('is not a directory');
  });

  it('takes a PGlite directory for one process: a second opener is refused, a dead holder is taken over', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'glimpse-lock-'));
    const location = parseSessionLocation(`pglite:${dir}#s`);
    const { store } = await openSessionStore(location);
    expect((await readFile(join(dir, PGLITE_LOCK_FILE), 'utf8')).trim()).toBe(String(process.pid));
    const twice = await failsWith(openSessionStore(location), SessionError, 'E_SESSION_STORE');
    expect(twice.message).toContain(`is in use by process ${process.pid} (this one)`);
    await store.close();
    // Another live process holds it: refused, naming it; once that process is gone, the lock is stale.
    const holder = spawn('sleep', ['30']);
    await writeFile(join(dir, PGLITE_LOCK_FILE), `${holder.pid}\n`);
    const busy = await failsWith(openSessionStore(location), SessionError, 'E_SESSION_STORE');
    expect(busy.message).toContain(`in use by process ${holder.pid}: PGlite takes one process at a time`);
    const gone = new Promise((resolve) => holder.once('exit', resolve));
    holder.kill('SIGKILL');
    await gone;
    const reopened = await openSessionStore(location);
    const session = await reopened.store.openSession('s');
    await session.close();
    await reopened.store.close();
    await expect(readFile(join(dir, PGLITE_LOCK_FILE))).rejects.toThrow();
  });

  it('says to start an unreachable server', async () => {
    const port = await closedPort();
    const error = await failsWith(
      openSessionStore(parseSessionLocation(`postgres://me:s3cret@127.0.0.1:${port}/db#s`)),
      SessionError,
      'E_SESSION_STORE',
    );
    expect(error.message).toContain(`cannot connect to Postgres at postgres://me:***@127.0.0.1:${port}/db`);
    expect(error.message).toContain('start the server');
    expect(error.message).not.toContain('s3cret');
  });

  if (postgresAvailable()) {
    it('says to check the password a server refuses, and to create a missing database', async () => {
      const url = new URL(DATABASE_URL!);
      url.password = 'wrong';
      const login = await failsWith(
        openSessionStore(parseSessionLocation(`${url.href}#s`)),
        SessionError,
        'E_SESSION_STORE',
      );
      expect(login.message).toContain('check the user and password');
      const other = new URL(DATABASE_URL!);
      other.pathname = '/no_such_database';
      const database = await failsWith(openSessionStore(parseSessionLocation(`${other.href}#s`)), SessionError);
      expect(database.message).toContain('create the database');
    });
  }
});
