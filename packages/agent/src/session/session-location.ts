import { SessionError } from './session-error.js';

/** What a `--session` value names: a JSONL file, a session in a PGlite directory, or one on a Postgres server. */
export type SessionLocation =
  | { kind: 'jsonl'; path: string }
  | { kind: 'pglite'; dataDir: string; id: string; location: string }
  | { kind: 'postgres'; connectionString: string; id: string; location: string };

// URL schemes are case-insensitive; any other scheme is a mistake (postgress://, mysql://), not a file name.
const POSTGRES_URL = /^postgres(ql)?:\/\//i;
const PGLITE = /^pglite:/i;
const OTHER_URL = /^([a-z][a-z0-9+.-]*):\/\//i;

export const SESSION_LOCATION_FORMS = 'a JSONL file path, pglite:DIR#ID, or postgres://USER:PASS@HOST:PORT/DB#ID';

/**
 * Parses a `--session` value. `pglite:` and `postgres://` (or `postgresql://`) name a database, `#ID` the
 * session in it; anything else is a JSONL file path, as it always was. A malformed URL is `E_SESSION_STORE`.
 */
export function parseSessionLocation(value: string): SessionLocation {
  if (PGLITE.test(value)) {
    const { before: dataDir, id } = splitId(value.slice('pglite:'.length), value);
    if (dataDir === '') throw badLocation(value, 'the PGlite directory is empty');
    return { kind: 'pglite', dataDir, id, location: `pglite:${dataDir}` };
  }
  if (POSTGRES_URL.test(value)) {
    const { before, id } = splitId(value, value);
    const connectionString = before.replace(POSTGRES_URL, (scheme) => scheme.toLowerCase());
    // Before parsing: a password cut short by an unencoded "/" or "?" can still parse, as another host.
    const unencoded = unencodedInUserInfo(before);
    if (unencoded !== undefined) throw badLocation(value, unencoded);
    let url: URL;
    try {
      url = new URL(connectionString);
    } catch (cause) {
      throw badLocation(
        value,
        unencodedInUserInfo(value) ?? `not a URL (${cause instanceof Error ? cause.message : String(cause)})`,
      );
    }
    if (url.hostname === '') throw badLocation(value, 'the URL names no host');
    if (url.pathname.length <= 1) throw badLocation(value, 'the URL names no database (…/DB#ID)');
    if (url.password !== '') url.password = '***';
    return { kind: 'postgres', connectionString, id, location: url.href };
  }
  const other = OTHER_URL.exec(value);
  if (other) throw badLocation(value, `${other[1]}:// is no store glimpse knows`);
  return { kind: 'jsonl', path: value };
}

/**
 * A store rather than one session, as `glimpse session list` takes it: a directory of JSONL logs, `pglite:DIR`
 * or a server URL (a `#ID` is ignored). The location's `id` is `*`, which no listing uses.
 */
export function parseStoreLocation(value: string): SessionLocation {
  if (PGLITE.test(value) || POSTGRES_URL.test(value) || OTHER_URL.test(value))
    return parseSessionLocation(`${value.replace(/#.*$/, '')}#*`);
  return { kind: 'jsonl', path: `${value.replace(/\/+$/, '')}/*` };
}

function splitId(text: string, value: string): { before: string; id: string } {
  const hash = text.lastIndexOf('#');
  const id = hash === -1 ? '' : decodeURIComponent(text.slice(hash + 1));
  if (id === '') throw badLocation(value, 'it names no session: end it with #ID');
  return { before: text.slice(0, hash), id };
}

/** Percent-encodings of the characters that end a URL's user and password early (and of `@` and `:`). */
const ENCODED: Readonly<Record<string, string>> = { '#': '%23', '/': '%2F', '?': '%3F', '@': '%40', ':': '%3A' };

/**
 * Why a server URL that does not parse fails, when it is a password (or user name) holding `#`, `/` or `?`
 * unencoded: the URL ends its user and password at the first of them. The reason never shows the password.
 */
function unencodedInUserInfo(value: string): string | undefined {
  const rest = value.replace(POSTGRES_URL, '');
  const at = rest.lastIndexOf('@');
  if (at === -1) return undefined;
  const userInfo = rest.slice(0, at);
  const found = /[#/?]/.exec(userInfo);
  if (found === null) return undefined;
  const colon = userInfo.indexOf(':');
  const where = colon !== -1 && colon < found.index ? 'the password' : 'the user name';
  const char = found[0];
  return (
    `${where} holds a "${char}" that is not percent-encoded, and a URL ends its user and password at the first "#", "/" or "?"; ` +
    `write ${char} as ${ENCODED[char]} (# %23, / %2F, ? %3F, @ %40, : %3A; encodeURIComponent gives the encoded form), ` +
    (where === 'the password'
      ? `e.g. postgres://USER:p${ENCODED[char]}ss@HOST:PORT/DB#ID`
      : `e.g. postgres://te${ENCODED[char]}am:PASS@HOST:PORT/DB#ID`)
  );
}

function badLocation(value: string, reason: string): SessionError {
  // Up to the last "@": a password may hold "@" (and, unencoded, "#", "/" or "?") and is never shown.
  const shown = value.replace(/(\/\/[^:@]*:).*@/, '$1***@');
  return new SessionError(
    'E_SESSION_STORE',
    `bad session location ${JSON.stringify(shown)}: ${reason}; expected ${SESSION_LOCATION_FORMS}`,
  );
}
