import type { Message } from '../types.js';
import type { MediaFact, SessionHeader, SessionMediaLine } from './session-format.js';

/**
 * Where sessions live, whatever the medium: a directory of JSONL files, an embedded PGlite database, a Postgres
 * server, D1 with R2. Every store keeps the same entries (`SessionEntry`, the JSONL line's shape) and gives the
 * same session back; media are stored once per content hash and entries refer to them.
 *
 * The promise every store keeps: an append resolves only once its entry is committed (a line ended by `\n` on
 * disk, a committed transaction), and a writer killed at any moment leaves a session that reads back with every
 * acknowledged entry and nothing half-written.
 */
export interface SessionStore {
  /** Where the sessions are, for messages and summaries: a directory, `pglite:DIR`, a URL without its password. */
  readonly location: string;
  /** Opens session `id` for appending, creating it (with `app` in its header) when missing; an existing one resumes. */
  openSession(id: string, options?: OpenSessionOptions): Promise<SessionAppender>;
  /** Reads session `id` back; `E_SESSION_STORE` when there is none. */
  readSession(id: string): Promise<StoredSession>;
  /** Every session the store holds, oldest first. */
  listSessions(): Promise<SessionListing[]>;
  /** Releases the store's connection or files; sessions opened from it are closed first by their owners. */
  close(): Promise<void>;
}

export interface OpenSessionOptions {
  /** Free-form metadata for the header of a new session (app name, version, model…). */
  app?: Record<string, unknown>;
  /**
   * Clock for `created` and each entry's `at`: called once for the header when the session is created, then
   * once per append (`append` and `appendMedia`), in order (what an import relies on to keep a log's times). Tests pin it.
   */
  now?: () => Date;
}

/** One open session: appends in call order, each resolved once committed. */
export interface SessionAppender {
  /** The session as it was when opened; undefined for a new one. */
  readonly resumed: StoredSession | undefined;
  append(message: Message): Promise<void>;
  /**
   * Appends a fact about one medium (a `media` line: refused by a provider, or uploaded as a file reference),
   * in call order with the messages; resolves once committed. The fact is checked first: E_SESSION_CORRUPT
   * when it is not one the format holds (no sha256 of 64 hex digits, neither `refused` nor `reference`).
   */
  appendMedia(fact: MediaFact): Promise<void>;
  /** Waits for queued appends; later appends reject with E_SESSION_CLOSED. */
  close(): Promise<void>;
}

/** A session as read back: its header and every committed entry, in append order. */
export interface StoredSession {
  header: SessionHeader;
  entries: { at: string; message: Message }[];
  messages: Message[];
  /** Every `media` line, in append order; absent from a session read by a store that predates them. */
  media?: StoredMediaLine[];
  /** An unterminated last line of a JSONL log (a writer killed mid-append), dropped; databases never have one. */
  tornTail?: { line: number; bytes: number };
  /** What the session occupies in its store, when the store can tell (a JSONL file's size). */
  storedBytes?: number;
}

/** A media line as read back, with its place in the log: how many message entries were appended before it. */
export interface StoredMediaLine extends SessionMediaLine {
  afterEntries: number;
}

export interface SessionListing {
  id: string;
  created: string;
  entries: number;
}
