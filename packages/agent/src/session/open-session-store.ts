import { stat } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { JsonlSessionStore } from './jsonl-session-store.js';
import { openPgClient } from './pg-client.js';
import { lockPGliteDirectory } from './pglite-directory-lock.js';
import { openPGliteClient } from './pglite-client.js';
import { PostgresSessionStore } from './postgres-session-store.js';
import { SessionError } from './session-error.js';
import type { SessionLocation } from './session-location.js';
import type { SessionStore } from './session-store.js';

/** The store a parsed `--session` value names, opened (migrations applied), and the session's id in it. */
export async function openSessionStore(location: SessionLocation): Promise<{ store: SessionStore; id: string }> {
  switch (location.kind) {
    case 'jsonl': {
      const path = resolve(location.path);
      return { store: new JsonlSessionStore(dirname(path)), id: basename(path) };
    }
    case 'pglite': {
      const dataDir = resolve(location.dataDir);
      const facts = await stat(dataDir).catch(() => undefined);
      if (!facts?.isDirectory())
        throw new SessionError(
          'E_SESSION_STORE',
          `the PGlite directory ${dataDir} ${facts ? 'is not a directory' : 'does not exist'}; create it (mkdir -p ${JSON.stringify(dataDir)}) and PGlite sets the database up in it on first use`,
        );
      const release = await lockPGliteDirectory(dataDir);
      const client = await openPGliteClient(dataDir).catch(async (error: unknown) => {
        await release();
        throw error;
      });
      const locked = {
        ...client,
        close: () => client.close().finally(release),
      };
      return { store: await PostgresSessionStore.open(locked, location.location), id: location.id };
    }
    case 'postgres': {
      const client = await openPgClient(location.connectionString, location.location);
      return { store: await PostgresSessionStore.open(client, location.location), id: location.id };
    }
    default: {
      const exhaustive: never = location;
      return exhaustive;
    }
  }
}
