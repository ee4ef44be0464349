/**
 * The little of a Postgres driver the session store uses, so one schema and one set of statements serve
 * PGlite (embedded, WASM) and a Postgres server (`pg`) alike. Parameters are `$1…`; bytea is a Uint8Array.
 */
export interface SqlQueries {
  query<Row extends Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>;
}

export interface SqlClient extends SqlQueries {
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: SqlQueries) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
