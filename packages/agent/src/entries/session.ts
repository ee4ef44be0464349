// `@glimpse/agent/session`: the JSONL session log's format and its errors, runtime-neutral. Writing and reading a
// log needs node:fs and node:crypto: `SessionWriter`, `loadSession` and `parseSession` are `@glimpse/agent/node`.
// The SessionStore seam and its database stores (PGlite in any runtime; `pg` and JSONL in `@glimpse/agent/node`).
export { SessionError, isSessionError, SESSION_ERROR_CODES } from '../session/session-error.js';
export type { SessionErrorCode } from '../session/session-error.js';
export { SESSION_FORMAT_NAME, SESSION_FORMAT_VERSION } from '../session/session-format.js';
export type {
  LoggedMessage,
  LoggedPart,
  MediaFact,
  MediaReferenceFact,
  MediaRefusalFact,
  SessionEntry,
  SessionHeader,
  SessionMediaLine,
} from '../session/session-format.js';
export { latestMediaFacts } from '../session/media-facts.js';
export type {
  OpenSessionOptions,
  SessionAppender,
  SessionListing,
  SessionStore,
  StoredMediaLine,
  StoredSession,
} from '../session/session-store.js';
export { PostgresSessionStore } from '../session/postgres-session-store.js';
export { openPGliteClient, PGLITE_VERSION } from '../session/pglite-client.js';
export type { SqlClient, SqlQueries } from '../session/sql-client.js';
export { migrateSessionSchema } from '../session/migrate-session-schema.js';
export { SESSION_MIGRATIONS, SESSION_SCHEMA_VERSION } from '../session/session-schema.js';
export type { Migration } from '../session/session-schema.js';
export { parseSessionLocation } from '../session/session-location.js';
export type { SessionLocation } from '../session/session-location.js';
export { D1SessionStore, D1_SESSION_SCHEMA } from '../session/d1-session-store.js';
export type { D1Like, D1StatementLike, R2Like } from '../session/d1-session-store.js';
