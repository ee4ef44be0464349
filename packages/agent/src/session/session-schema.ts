/**
 * The session schema of the Postgres stores (PGlite and a server run the same SQL), as versioned migrations.
 * A migration is never edited once released: a change is a new one, so a database at any earlier version
 * reaches the latest by applying the ones it lacks, in order.
 */
export interface Migration {
  version: number;
  /** Why it exists, for the docs and for a reader of `glimpse_schema_migrations`. */
  summary: string;
  statements: readonly string[];
}

export const SESSION_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    summary: 'sessions, their entries (the JSONL entry, media as references) and media stored once by SHA-256',
    statements: [
      `CREATE TABLE glimpse_sessions (
        id text PRIMARY KEY,
        format_version integer NOT NULL,
        created timestamptz NOT NULL,
        app jsonb NOT NULL,
        entry_count integer NOT NULL DEFAULT 0
      )`,
      // The check makes the database itself refuse bytes that do not hash to their key.
      `CREATE TABLE glimpse_media (
        sha256 text PRIMARY KEY,
        media_type text NOT NULL,
        bytes bytea NOT NULL,
        CHECK (sha256 = encode(sha256(bytes), 'hex'))
      )`,
      `CREATE TABLE glimpse_entries (
        session_id text NOT NULL REFERENCES glimpse_sessions (id) ON DELETE CASCADE,
        seq integer NOT NULL,
        entry jsonb NOT NULL,
        PRIMARY KEY (session_id, seq)
      )`,
    ],
  },
  {
    version: 2,
    summary: 'which entry refers to which medium, so media per session are found without reading entries',
    statements: [
      `CREATE TABLE glimpse_entry_media (
        session_id text NOT NULL,
        seq integer NOT NULL,
        sha256 text NOT NULL REFERENCES glimpse_media (sha256),
        PRIMARY KEY (session_id, seq, sha256),
        FOREIGN KEY (session_id, seq) REFERENCES glimpse_entries (session_id, seq) ON DELETE CASCADE
      )`,
      'CREATE INDEX glimpse_entry_media_sha256 ON glimpse_entry_media (sha256)',
      // Entries written at version 1 get their links from the references they hold.
      `INSERT INTO glimpse_entry_media (session_id, seq, sha256)
        SELECT DISTINCT e.session_id, e.seq, part ->> 'sha256'
        FROM glimpse_entries e, jsonb_array_elements(coalesce(e.entry -> 'message' -> 'content', '[]'::jsonb)) part
        WHERE part ? 'sha256'`,
    ],
  },
  {
    version: 3,
    summary: 'media lines: facts about one medium of a session (refused by a provider, uploaded as a file reference)',
    statements: [
      // Apart from the entries, so the entry count and an entry's seq stay the messages' own; `after_entries` is
      // the line's place among them, what an export to JSONL or a copy needs to put it back where it was.
      `CREATE TABLE glimpse_media_lines (
        session_id text NOT NULL REFERENCES glimpse_sessions (id) ON DELETE CASCADE,
        seq integer NOT NULL,
        after_entries integer NOT NULL,
        line jsonb NOT NULL,
        PRIMARY KEY (session_id, seq)
      )`,
    ],
  },
];

export const SESSION_SCHEMA_VERSION = SESSION_MIGRATIONS.at(-1)!.version;
