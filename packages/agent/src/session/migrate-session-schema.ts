import { SESSION_MIGRATIONS, SESSION_SCHEMA_VERSION } from './session-schema.js';
import { SessionError } from './session-error.js';
import type { SqlClient } from './sql-client.js';

/**
 * Brings the database to the latest schema (or to `upTo`): one transaction holding an advisory lock, so two
 * processes opening the same database at once apply each migration once, and a failed migration leaves the
 * database at its previous version. Safe to run on every open. Returns the version the database is at.
 */
export async function migrateSessionSchema(client: SqlClient, upTo = SESSION_SCHEMA_VERSION): Promise<number> {
  return client.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('glimpse_schema_migrations'))`);
    await tx.query(`CREATE TABLE IF NOT EXISTS glimpse_schema_migrations (
      version integer PRIMARY KEY,
      summary text NOT NULL,
      applied timestamptz NOT NULL DEFAULT now()
    )`);
    const [row] = await tx.query<{ version: number | null }>(
      'SELECT max(version) AS version FROM glimpse_schema_migrations',
    );
    const current = row?.version ?? 0;
    if (current > SESSION_SCHEMA_VERSION) {
      throw new SessionError(
        'E_SESSION_STORE',
        `the database's session schema is at version ${current}, newer than this glimpse knows (${SESSION_SCHEMA_VERSION}); upgrade glimpse`,
      );
    }
    for (const migration of SESSION_MIGRATIONS) {
      if (migration.version <= current || migration.version > upTo) continue;
      for (const statement of migration.statements) await tx.query(statement);
      await tx.query('INSERT INTO glimpse_schema_migrations (version, summary) VALUES ($1, $2)', [
        migration.version,
        migration.summary,
      ]);
    }
    return Math.max(current, Math.min(upTo, SESSION_SCHEMA_VERSION));
  });
}
