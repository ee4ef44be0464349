// A D1 binding over Node's SQLite (`node:sqlite`, the engine D1 runs) and an R2 bucket over a Map, so the D1
// store's SQL runs in vitest; the workerd suite (test/runtimes/sessions) runs it against the real bindings.
import type { D1Like, D1StatementLike, R2Like } from '../../packages/agent/src/session/d1-session-store.js';

/** The part of `node:sqlite` used here (typed locally: the repo's @types/node predates the module). */
interface Database {
  exec(sql: string): void;
  prepare(sql: string): { all(...values: unknown[]): unknown[]; get(...values: unknown[]): unknown };
}
const SQLITE = 'node:sqlite';
const loadSqlite = () => import(SQLITE) as Promise<{ DatabaseSync: new (path: string) => Database }>;

/** Whether this Node has `node:sqlite` (22.13 and later without a flag). */
export async function sqliteAvailable(): Promise<boolean> {
  return loadSqlite().then(
    () => true,
    () => false,
  );
}

export async function sqliteD1(): Promise<{ db: D1Like; bucket: R2Like; objects: Map<string, Uint8Array> }> {
  const { DatabaseSync } = await loadSqlite();
  const database = new DatabaseSync(':memory:');
  database.exec('PRAGMA foreign_keys = ON');
  const statement = (sql: string, values: unknown[] = []): D1StatementLike & { run(): unknown[] } => ({
    bind: (...bound: unknown[]) => statement(sql, bound),
    run: () => database.prepare(sql).all(...values),
    all: async <Row>() => ({ results: database.prepare(sql).all(...values) as Row[] }),
    first: async <Row>() => (database.prepare(sql).get(...values) as Row | undefined) ?? null,
  });
  const db: D1Like = {
    prepare: (sql) => statement(sql),
    // D1 runs a batch as one transaction: all of it or none.
    batch: async (statements) => batch(database, statements as ReturnType<typeof statement>[]),
  };
  const objects = new Map<string, Uint8Array>();
  const bucket: R2Like = {
    put: async (key, value) => objects.set(key, new Uint8Array(value)),
    get: async (key) => {
      const bytes = objects.get(key);
      return bytes === undefined ? null : { arrayBuffer: async () => bytes.slice().buffer };
    },
  };
  return { db, bucket, objects };
}

function batch(database: Database, statements: { run(): unknown[] }[]): unknown[] {
  database.exec('BEGIN');
  try {
    const results = statements.map((statement) => statement.run());
    database.exec('COMMIT');
    return results;
  } catch (error) {
    database.exec('ROLLBACK');
    throw error;
  }
}
