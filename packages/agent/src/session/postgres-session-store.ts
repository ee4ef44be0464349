import type { Message } from '../types.js';
import { decodeMediaFact, decodeMediaLine } from './decode-media-line.js';
import { decodeMessage } from './decode-message.js';
import { detachMedia } from './detach-media.js';
import { encodeMessage } from './encode-message.js';
import { migrateSessionSchema } from './migrate-session-schema.js';
import { SessionError } from './session-error.js';
import {
  SESSION_FORMAT_NAME,
  SESSION_FORMAT_VERSION,
  type MediaFact,
  type SessionEntry,
  type SessionHeader,
  type SessionMediaLine,
} from './session-format.js';
import type {
  OpenSessionOptions,
  SessionAppender,
  SessionListing,
  SessionStore,
  StoredMediaLine,
  StoredSession,
} from './session-store.js';
import type { SqlClient, SqlQueries } from './sql-client.js';

interface SessionRow extends Record<string, unknown> {
  id: string;
  format_version: number;
  created: Date | string;
  app: Record<string, unknown>;
  entry_count: number;
}

/**
 * Sessions in Postgres, embedded (PGlite) or a server (`pg`): the same SQL over a `SqlClient`. Each append is
 * one transaction (its media upserted by SHA-256, the entry, its media links), so an acknowledged entry is
 * committed and a killed writer leaves no part of one behind. Open it with `PostgresSessionStore.open`, which
 * applies the schema's migrations.
 */
export class PostgresSessionStore implements SessionStore {
  readonly location: string;
  private readonly client: SqlClient;

  private constructor(client: SqlClient, location: string) {
    this.client = client;
    this.location = location;
  }

  static async open(client: SqlClient, location: string): Promise<PostgresSessionStore> {
    try {
      await migrateSessionSchema(client);
    } catch (error) {
      await client.close().catch(() => undefined);
      throw error;
    }
    return new PostgresSessionStore(client, location);
  }

  async openSession(id: string, options: OpenSessionOptions = {}): Promise<SessionAppender> {
    const now = options.now ?? (() => new Date());
    const inserted = await this.client.query(
      `INSERT INTO glimpse_sessions (id, format_version, created, app) VALUES ($1, $2, $3, $4)
        ON CONFLICT (id) DO NOTHING RETURNING id`,
      [id, SESSION_FORMAT_VERSION, now().toISOString(), JSON.stringify(options.app ?? {})],
    );
    const resumed = inserted.length > 0 ? undefined : await this.readSession(id);
    return new PostgresSessionAppender(this.client, id, now, resumed);
  }

  async readSession(id: string): Promise<StoredSession> {
    return this.client.transaction(async (tx) => {
      const [row] = await tx.query<SessionRow>('SELECT * FROM glimpse_sessions WHERE id = $1', [id]);
      if (row === undefined)
        throw new SessionError(
          'E_SESSION_STORE',
          `no session ${JSON.stringify(id)} in ${this.location}; \`glimpse session list ${this.location}\` shows the sessions it holds`,
        );
      const rows = await tx.query<{ seq: number; entry: SessionEntry }>(
        'SELECT seq, entry FROM glimpse_entries WHERE session_id = $1 ORDER BY seq',
        [id],
      );
      // Base64 from the server: the drivers' bytea parsing (hex text) costs more than the whole rest of a read.
      const mediaRows = await tx.query<{ sha256: string; data: string }>(
        `SELECT m.sha256, translate(encode(m.bytes, 'base64'), E'\\n', '') AS data FROM glimpse_media m
          WHERE m.sha256 IN (SELECT DISTINCT sha256 FROM glimpse_entry_media WHERE session_id = $1)`,
        [id],
      );
      const stored = new Map(mediaRows.map((medium) => [medium.sha256, medium.data]));
      const entries = rows.map(({ seq, entry }) => {
        try {
          return { at: entry.at, message: decodeMessage(entry.message, stored) };
        } catch (cause) {
          const reason = cause instanceof Error ? cause.message : String(cause);
          throw new SessionError('E_SESSION_CORRUPT', `session ${id}, entry ${seq}: ${reason}`, undefined, { cause });
        }
      });
      const lines = await tx.query<{ seq: number; after_entries: number; line: SessionMediaLine }>(
        'SELECT seq, after_entries, line FROM glimpse_media_lines WHERE session_id = $1 ORDER BY seq',
        [id],
      );
      const media = lines.flatMap(({ seq, after_entries, line }): StoredMediaLine[] => {
        try {
          const decoded = decodeMediaLine(line); // undefined: only of a provider this version does not know
          return decoded ? [{ ...decoded, afterEntries: after_entries }] : [];
        } catch (cause) {
          const reason = cause instanceof Error ? cause.message : String(cause);
          throw new SessionError('E_SESSION_CORRUPT', `session ${id}, media line ${seq}: ${reason}`, undefined, {
            cause,
          });
        }
      });
      return { header: header(row), entries, messages: entries.map((entry) => entry.message), media };
    });
  }

  async listSessions(): Promise<SessionListing[]> {
    const rows = await this.client.query<SessionRow>('SELECT * FROM glimpse_sessions ORDER BY created, id');
    return rows.map((row) => ({ id: row.id, created: iso(row.created), entries: row.entry_count }));
  }

  close(): Promise<void> {
    return this.client.close();
  }
}

class PostgresSessionAppender implements SessionAppender {
  readonly resumed: StoredSession | undefined;
  private queue: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly client: SqlClient,
    private readonly id: string,
    private readonly now: () => Date,
    resumed: StoredSession | undefined,
  ) {
    this.resumed = resumed;
  }

  append(message: Message): Promise<void> {
    if (this.closed) return Promise.reject(new SessionError('E_SESSION_CLOSED', 'the session is closed'));
    // Encoded now, so later changes to the message do not reach the log; written in call order.
    const logged = encodeMessage(message);
    const step = this.queue.then(async () => {
      const { message: entryMessage, media } = await detachMedia(logged);
      const entry: SessionEntry = { type: 'message', at: this.now().toISOString(), message: entryMessage };
      await this.client.transaction((tx) => insertEntry(tx, this.id, entry, media));
    });
    this.queue = step.catch(() => undefined);
    return step;
  }

  appendMedia(fact: MediaFact): Promise<void> {
    if (this.closed) return Promise.reject(new SessionError('E_SESSION_CLOSED', 'the session is closed'));
    let checked: MediaFact;
    try {
      checked = decodeMediaFact(fact);
    } catch (error) {
      return Promise.reject(error);
    }
    const step = this.queue.then(async () => {
      const line: SessionMediaLine = { type: 'media', at: this.now().toISOString(), ...checked };
      await this.client.transaction((tx) => insertMediaLine(tx, this.id, line));
    });
    this.queue = step.catch(() => undefined);
    return step;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.queue;
  }
}

/** One media line, placed after the entries committed so far; the session's row lock orders it among them. */
async function insertMediaLine(tx: SqlQueries, id: string, line: SessionMediaLine): Promise<void> {
  const [session] = await tx.query<{ entry_count: number }>(
    'SELECT entry_count FROM glimpse_sessions WHERE id = $1 FOR UPDATE',
    [id],
  );
  if (session === undefined)
    throw new SessionError('E_SESSION_STORE', `session ${JSON.stringify(id)} was deleted while it was being written`);
  await tx.query(
    `INSERT INTO glimpse_media_lines (session_id, seq, after_entries, line)
      SELECT $1, coalesce(max(seq), 0) + 1, $2, $3 FROM glimpse_media_lines WHERE session_id = $1`,
    [id, session.entry_count, JSON.stringify(line)],
  );
}

async function insertEntry(
  tx: SqlQueries,
  id: string,
  entry: SessionEntry,
  media: Awaited<ReturnType<typeof detachMedia>>['media'],
): Promise<void> {
  // The row lock on the session orders concurrent writers; its count is the entry's sequence number.
  const [counted] = await tx.query<{ entry_count: number }>(
    'UPDATE glimpse_sessions SET entry_count = entry_count + 1 WHERE id = $1 RETURNING entry_count',
    [id],
  );
  if (counted === undefined)
    throw new SessionError('E_SESSION_STORE', `session ${JSON.stringify(id)} was deleted while it was being written`);
  for (const medium of media) {
    await tx.query(
      'INSERT INTO glimpse_media (sha256, media_type, bytes) VALUES ($1, $2, $3) ON CONFLICT (sha256) DO NOTHING',
      [medium.sha256, medium.mediaType, medium.bytes],
    );
  }
  await tx.query('INSERT INTO glimpse_entries (session_id, seq, entry) VALUES ($1, $2, $3)', [
    id,
    counted.entry_count,
    JSON.stringify(entry),
  ]);
  for (const medium of media) {
    await tx.query('INSERT INTO glimpse_entry_media (session_id, seq, sha256) VALUES ($1, $2, $3)', [
      id,
      counted.entry_count,
      medium.sha256,
    ]);
  }
}

function header(row: SessionRow): SessionHeader {
  if (row.format_version > SESSION_FORMAT_VERSION)
    throw new SessionError(
      'E_SESSION_VERSION',
      `session ${row.id} was written by format version ${row.format_version}; this glimpse reads up to ${SESSION_FORMAT_VERSION}, upgrade it`,
    );
  return {
    type: 'header',
    format: SESSION_FORMAT_NAME,
    version: row.format_version,
    created: iso(row.created),
    app: row.app,
  };
}

function iso(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}
