import { loadDriver } from './load-driver.js';
import type { SqlClient, SqlQueries } from './sql-client.js';

/** The PGlite version glimpse is tested with (the optional peer dependency's pin). */
export const PGLITE_VERSION = '0.5.16';

/**
 * A `SqlClient` over PGlite (Postgres in WASM): `dataDir` is a directory in Node and Deno, `idb://NAME` for
 * IndexedDB in a browser, undefined for memory. PGlite is single-connection: one process opens a directory at
 * a time. Its queries already run one at a time, and a transaction holds the connection until it ends.
 */
export async function openPGliteClient(dataDir: string | undefined): Promise<SqlClient> {
  const { PGlite } = await loadDriver('@electric-sql/pglite', PGLITE_VERSION, () => import('@electric-sql/pglite'));
  const db = await PGlite.create(dataDir);
  const queries = (on: Pick<typeof db, 'query'>): SqlQueries => ({
    async query<Row extends Record<string, unknown>>(sql: string, params?: unknown[]) {
      return (await on.query<Row>(sql, params)).rows;
    },
  });
  return {
    ...queries(db),
    transaction: (work) => db.transaction((tx) => work(queries(tx))),
    close: () => db.close(),
  };
}
