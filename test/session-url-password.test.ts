// A Postgres session URL with a password problem (stranger review of issue 28) says what is wrong and how to
// write it, and never prints the password: an unencoded "#", "/" or "?" in the password (the URL ends its user
// and password there), and no password at all for a server that asks for one (a real server: DATABASE_URL).
import { describe, expect, it } from 'vitest';
import { openSessionStore } from '../packages/agent/src/session/open-session-store.js';
import { parseSessionLocation } from '../packages/agent/src/session/session-location.js';
import { SessionError } from '../packages/agent/src/session/session-error.js';
import { DATABASE_URL, postgresAvailable } from './support/postgres-url.js';
import { caught, failsWith } from './support/typed-errors.js';

const SECRET = 'Zq7';

describe('a password that is not percent-encoded', () => {
  it('names the character, its encoding and the form, and shows no part of the password', async () => {
    const cases = [
      { url: `postgres://glimpse:${SECRET}#Kx9@db.example:5432/agents#run-1`, char: '#', code: '%23' },
      { url: `postgres://glimpse:${SECRET}#Kx9@db.example:5432/agents`, char: '#', code: '%23' },
      { url: `postgresql://glimpse:${SECRET}/Kx9@db.example/agents#run-1`, char: '/', code: '%2F' },
      { url: `postgres://glimpse:${SECRET}?Kx9@db.example/agents#run-1`, char: '?', code: '%3F' },
      { url: `postgres://glimpse:${SECRET}@x#Kx9@db.example/agents#run-1`, char: '#', code: '%23' },
    ];
    for (const { url, char, code } of cases) {
      const error = await failsWith(() => parseSessionLocation(url), SessionError, 'E_SESSION_STORE');
      expect(error.message, url).toContain(
        `the password holds a "${char}" that is not percent-encoded, and a URL ends its user and password at the first "#", "/" or "?"; write ${char} as ${code}`,
      );
      expect(error.message, url).toMatch(/e\.g\. postgres:\/\/USER:p%..ss@HOST:PORT\/DB#ID/);
      expect(error.message, url).not.toContain(SECRET);
      expect(error.message, url).not.toContain('Kx9');
      expect(error.message, url).toMatch(/"postgres(ql)?:\/\/glimpse:\*\*\*@/);
    }
  });

  it('the encoded form parses, and names the same password', () => {
    const location = parseSessionLocation(`postgres://glimpse:${SECRET}%23Kx9@db.example:5432/agents#run-1`);
    if (location.kind !== 'postgres') throw new Error('expected a Postgres location');
    expect(new URL(location.connectionString).password).toBe(`${SECRET}%23Kx9`);
    expect(decodeURIComponent(new URL(location.connectionString).password)).toBe(`${SECRET}#Kx9`);
    expect(location.location).not.toContain(SECRET);
  });

  it('a user name holding "/" is said to be the user name', async () => {
    const error = await failsWith(
      () => parseSessionLocation('postgres://team/a:secret@db.example/agents#run-1'),
      SessionError,
      'E_SESSION_STORE',
    );
    expect(error.message).toContain('the user name holds a "/" that is not percent-encoded');
    expect(error.message).not.toContain('secret');
  });
});

if (postgresAvailable()) {
  describe('no password for a server that asks for one', () => {
    it('says the URL has none and how to write it; a wrong one still says to check it', async () => {
      const server = new URL(DATABASE_URL!);
      const saved = process.env['PGPASSWORD'];
      delete process.env['PGPASSWORD'];
      try {
        const bare = `postgres://${server.username}@${server.host}${server.pathname}#nopass`;
        const error = await caught(openSessionStore(parseSessionLocation(bare)));
        if (!(error instanceof SessionError)) throw error;
        expect(error.code).toBe('E_SESSION_STORE');
        expect(error.message).toMatch(
          /^cannot connect to Postgres at postgres:\/\/glimpse@127\.0\.0\.1:\d+\/glimpse \(.*\); the server asks for a password and the URL has none: write postgres:\/\/USER:PASS@HOST:PORT\/DB#ID with the password percent-encoded \(# as %23, .*\), or set PGPASSWORD$/,
        );
        const wrong = `postgres://${server.username}:wrong-${SECRET}@${server.host}${server.pathname}#wrong`;
        const refused = await caught(openSessionStore(parseSessionLocation(wrong)));
        if (!(refused instanceof SessionError)) throw refused;
        expect(refused.message).toMatch(/password authentication failed .*; check the user and password in the URL$/);
        expect(refused.message).not.toContain(`wrong-${SECRET}`);
        expect(refused.message).not.toContain(server.password);
      } finally {
        if (saved !== undefined) process.env['PGPASSWORD'] = saved;
      }
    }, 60_000);
  });
}
