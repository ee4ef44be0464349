import { loadDriver } from './load-driver.js';
import { SessionError } from './session-error.js';
import type { SqlClient, SqlQueries } from './sql-client.js';

/** The `pg` version glimpse is tested with (the optional peer dependency's pin). */
export const PG_VERSION = '8.23.1';

/**
 * A `SqlClient` over a Postgres server through `pg`'s pool. The pool is checked once on open, so an
 * unreachable server or a refused login is `E_SESSION_STORE` at once, with what to do, not at the first append.
 * `location` is the URL without its password, for messages.
 */
export async function openPgClient(connectionString: string, location: string): Promise<SqlClient> {
  const pg = await loadDriver('pg', PG_VERSION, () => import('pg'));
  const pool = new pg.default.Pool({ connectionString, max: 4, connectionTimeoutMillis: 10_000 });
  // An idle client's error (the server restarting) must not crash the process; the next query reports it.
  pool.on('error', () => undefined);
  try {
    (await pool.connect()).release();
  } catch (cause) {
    await pool.end().catch(() => undefined);
    throw connectError(cause, location, !hasPassword(connectionString));
  }
  const on = (client: Pick<typeof pool, 'query'>): SqlQueries => ({
    async query<Row extends Record<string, unknown>>(sql: string, params?: unknown[]) {
      return (await client.query<Row>(sql, params)).rows;
    },
  });
  return {
    ...on(pool),
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work(on(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

/** Whether the login has a password: in the URL, or where `pg` looks when the URL has none (PGPASSWORD). */
function hasPassword(connectionString: string): boolean {
  if (process.env['PGPASSWORD']) return true;
  try {
    return new URL(connectionString).password !== '';
  } catch {
    return true; // pg parses what URL cannot: say nothing of the password then
  }
}

/** pg's refusals when the server asks for a password the URL lacks (SCRAM: "client password must be a string"). */
const PASSWORD_NEEDED = /password must be a string|password authentication failed|no password supplied/i;

function connectError(cause: unknown, location: string, noPassword: boolean): SessionError {
  const code = cause instanceof Error && 'code' in cause ? String(cause.code) : undefined;
  const reason = cause instanceof Error ? cause.message : String(cause);
  const advice =
    noPassword && (code === '28P01' || PASSWORD_NEEDED.test(reason))
      ? 'the server asks for a password and the URL has none: write postgres://USER:PASS@HOST:PORT/DB#ID with the password percent-encoded (# as %23, / %2F, ? %3F, @ %40, : %3A), or set PGPASSWORD'
      : code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'ETIMEDOUT' || code === 'EHOSTUNREACH'
        ? 'start the server, or check the host and port in the URL'
        : code === '28P01' || code === '28000'
          ? 'check the user and password in the URL'
          : code === '3D000'
            ? 'create the database (createdb) or name an existing one in the URL'
            : 'check the URL and that the server accepts connections';
  return new SessionError(
    'E_SESSION_STORE',
    `cannot connect to Postgres at ${location} (${reason}); ${advice}`,
    undefined,
    {
      cause,
    },
  );
}
