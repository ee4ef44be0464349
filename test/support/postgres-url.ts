// The Postgres the server-store tests run against: DATABASE_URL, which scripts/with-postgres.sh sets for a
// throw-away cluster. Locally without it those tests skip, saying so; with GLIMPSE_REQUIRE_POSTGRES=1 (what
// .ci/run sets) a missing DATABASE_URL fails them instead, so CI can never pass them by skipping.
import { it } from 'vitest';

export const DATABASE_URL = process.env.DATABASE_URL;

/** Registers the guard test and says whether the Postgres tests of this file run. */
export function postgresAvailable(): boolean {
  if (DATABASE_URL !== undefined && DATABASE_URL !== '') return true;
  if (process.env.GLIMPSE_REQUIRE_POSTGRES === '1') {
    it('has a Postgres server (DATABASE_URL)', () => {
      throw new Error('GLIMPSE_REQUIRE_POSTGRES=1 but DATABASE_URL is not set: run under scripts/with-postgres.sh');
    });
  } else {
    console.warn('Postgres store tests skipped: DATABASE_URL is not set (run under bash scripts/with-postgres.sh)');
  }
  return false;
}
