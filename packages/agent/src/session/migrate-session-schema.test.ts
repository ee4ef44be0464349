import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DATABASE_URL, postgresAvailable } from '../../../../test/support/postgres-url.js';
import { migrateSessionSchema } from './migrate-session-schema.js';
import { openPgClient } from './pg-client.js';
import { openPGliteClient } from './pglite-client.js';
import { PostgresSessionStore } from './postgres-session-store.js';
import { SESSION_SCHEMA_VERSION } from './session-schema.js';
import type { SqlClient } from './sql-client.js';

/** The same migration checks on an empty database of each kind; `fresh` gives one with no glimpse tables. */
function migrations(name: string, fresh: () => Promise<SqlClient>) {
  describe(`session schema migrations (${name})`, () => {
    let client: SqlClient | undefined;
    afterEach(() => client?.close());

    it('sets up an empty database at the latest version, and a second run changes nothing', async () => {
      client = await fresh();
      expect(await migrateSessionSchema(client)).toBe(SESSION_SCHEMA_VERSION);
      const tables = async () =>
        (
          await client!.query<{ name: string }>(
            `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name LIKE 'glimpse_%' ORDER BY 1`,
          )
        ).map((row) => row.name);
      const before = await tables();
      expect(before).toStrictEqual([
        'glimpse_entries',
        'glimpse_entry_media',
        'glimpse_media',
        'glimpse_media_lines',
        'glimpse_schema_migrations',
        'glimpse_sessions',
      ]);
      expect(await migrateSessionSchema(client)).toBe(SESSION_SCHEMA_VERSION);
      expect(await tables()).toStrictEqual(before);
      const versions = await client.query<{ version: number }>(
        'SELECT version FROM glimpse_schema_migrations ORDER BY 1',
      );
      expect(versions.map((row) => row.version)).toStrictEqual([1, 2, 3]);
    });

    it('brings a version-1 database with entries to the latest, linking the media its entries refer to', async () => {
      client = await fresh();
      expect(await migrateSessionSchema(client, 1)).toBe(1);
      // What a glimpse of schema version 1 wrote: a session, a medium, an entry referring to it.
      await client.query(
        `INSERT INTO glimpse_sessions (id, format_version, created, app, entry_count) VALUES ('old', 1, now(), '{}', 1)`,
      );
      const bytes = new TextEncoder().encode('not really a png');
      const [hashed] = await client.query<{ sha256: string }>(`SELECT encode(sha256($1), 'hex') AS sha256`, [bytes]);
      await client.query(`INSERT INTO glimpse_media (sha256, media_type, bytes) VALUES ($1, 'image/png', $2)`, [
        hashed!.sha256,
        bytes,
      ]);
      const entry = {
        type: 'message',
        at: '2026-12-01T00:00:00.000Z',
        message: {
          role: 'user',
          content: [
            { type: 'text', text: 'hi' },
            { type: 'image', mimeType: 'image/png', sha256: hashed!.sha256 },
          ],
        },
      };
      await client.query(`INSERT INTO glimpse_entries (session_id, seq, entry) VALUES ('old', 1, $1)`, [
        JSON.stringify(entry),
      ]);

      const store = await PostgresSessionStore.open(client, name);
      client = undefined; // the store owns it now
      try {
        const session = await store.readSession('old');
        expect(session.messages).toStrictEqual([
          {
            role: 'user',
            parts: [
              { type: 'text', text: 'hi' },
              { type: 'image', mediaType: 'image/png', data: Buffer.from(bytes).toString('base64') },
            ],
          },
        ]);
      } finally {
        await store.close();
      }
    });

    it('brings a version-2 database to the latest: its sessions read with no media lines, then take them', async () => {
      client = await fresh();
      expect(await migrateSessionSchema(client, 2)).toBe(2);
      // What a glimpse of schema version 2 wrote (open() would migrate, so through SQL).
      await client.query(
        `INSERT INTO glimpse_sessions (id, format_version, created, app, entry_count) VALUES ('two', 1, now(), '{}', 1)`,
      );
      const entry = { type: 'message', at: '2026-12-01T00:00:00.000Z', message: { role: 'user', content: [] } };
      await client.query(`INSERT INTO glimpse_entries (session_id, seq, entry) VALUES ('two', 1, $1)`, [
        JSON.stringify(entry),
      ]);
      const store = await PostgresSessionStore.open(client, name);
      client = undefined;
      try {
        expect((await store.readSession('two')).media).toStrictEqual([]);
        const session = await store.openSession('two');
        const fact = {
          sha256: 'a'.repeat(64),
          refused: {
            route: 'openai',
            code: 'E_MEDIA_REFUSED',
            action: 'placeholder' as const,
            reason: 'invalid image',
          },
        };
        await session.appendMedia(fact);
        await session.close();
        const [line] = (await store.readSession('two')).media ?? [];
        expect(line).toMatchObject({ type: 'media', ...fact, afterEntries: 1 });
      } finally {
        await store.close();
      }
    });

    it('refuses a database whose schema is newer than this glimpse knows', async () => {
      client = await fresh();
      await migrateSessionSchema(client);
      await client.query(`INSERT INTO glimpse_schema_migrations (version, summary) VALUES (99, 'from the future')`);
      await expect(migrateSessionSchema(client)).rejects.toMatchObject({
        code: 'E_SESSION_STORE',
        message: expect.stringContaining('upgrade glimpse'),
      });
    });
  });
}

migrations('PGlite', async () => openPGliteClient(await mkdtemp(join(tmpdir(), 'glimpse-migrate-'))));

if (postgresAvailable()) {
  // Each test gets an empty schema of its own on the one server, found first on the search path.
  let schemas = 0;
  migrations('Postgres server', async () => {
    const schema = `glimpse_migrate_${process.pid}_${Date.now()}_${schemas++}`;
    const setup = await openPgClient(DATABASE_URL!, 'test server');
    await setup.query(`CREATE SCHEMA ${schema}`);
    await setup.close();
    const url = new URL(DATABASE_URL!);
    url.searchParams.set('options', `-c search_path=${schema}`);
    return openPgClient(url.href, 'test server');
  });
}
