import { bytesToBase64 } from '../base64.js';
import type { Message } from '../types.js';
import { decodeMediaFact, decodeMediaLine } from './decode-media-line.js';
import { decodeMessage } from './decode-message.js';
import { detachMedia, type StoredMedium } from './detach-media.js';
import { encodeMessage } from './encode-message.js';
import { SessionError } from './session-error.js';
import {
  SESSION_FORMAT_NAME,
  SESSION_FORMAT_VERSION,
  type MediaFact,
  type SessionEntry,
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
import { sha256Hex } from './sha256-hex.js';

/** The part of a Workers D1 binding this store uses (structural, so no Workers type package is needed). */
export interface D1Like {
  prepare(sql: string): D1StatementLike;
  batch(statements: D1StatementLike[]): Promise<unknown[]>;
}
export interface D1StatementLike {
  bind(...values: unknown[]): D1StatementLike;
  all<Row = Record<string, unknown>>(): Promise<{ results: Row[] }>;
  first<Row = Record<string, unknown>>(): Promise<Row | null>;
}
/** The part of a Workers R2 binding this store uses. */
export interface R2Like {
  put(key: string, value: Uint8Array, options?: { httpMetadata?: { contentType?: string } }): Promise<unknown>;
  get(key: string): Promise<{ arrayBuffer(): Promise<ArrayBuffer> } | null>;
}

/**
 * D1's schema (SQLite): the Postgres stores' tables, media bytes in R2 under `media/<sha256>` instead of a
 * bytea column. Each statement is idempotent, so applying them on every open is safe; the version row says
 * which schema a database has for the migrations that come after.
 */
export const D1_SESSION_SCHEMA = [
  'CREATE TABLE IF NOT EXISTS glimpse_schema_migrations (version INTEGER PRIMARY KEY, summary TEXT NOT NULL, applied TEXT NOT NULL)',
  `CREATE TABLE IF NOT EXISTS glimpse_sessions (id TEXT PRIMARY KEY, format_version INTEGER NOT NULL, created TEXT NOT NULL,
    app TEXT NOT NULL, entry_count INTEGER NOT NULL DEFAULT 0)`,
  'CREATE TABLE IF NOT EXISTS glimpse_media (sha256 TEXT PRIMARY KEY, media_type TEXT NOT NULL, byte_length INTEGER NOT NULL)',
  `CREATE TABLE IF NOT EXISTS glimpse_entries (session_id TEXT NOT NULL REFERENCES glimpse_sessions (id), seq INTEGER NOT NULL,
    entry TEXT NOT NULL, PRIMARY KEY (session_id, seq))`,
  `CREATE TABLE IF NOT EXISTS glimpse_entry_media (session_id TEXT NOT NULL, seq INTEGER NOT NULL, sha256 TEXT NOT NULL,
    PRIMARY KEY (session_id, seq, sha256))`,
  `INSERT OR IGNORE INTO glimpse_schema_migrations (version, summary, applied)
    VALUES (1, 'sessions, entries, media rows (bytes in R2), entry media links', datetime('now'))`,
  // Version 2: media lines apart from the entries (as the Postgres schema's version 3), placed by after_entries.
  `CREATE TABLE IF NOT EXISTS glimpse_media_lines (session_id TEXT NOT NULL REFERENCES glimpse_sessions (id),
    seq INTEGER NOT NULL, after_entries INTEGER NOT NULL, line TEXT NOT NULL, PRIMARY KEY (session_id, seq))`,
  `INSERT OR IGNORE INTO glimpse_schema_migrations (version, summary, applied)
    VALUES (2, 'media lines: facts about one medium of a session', datetime('now'))`,
] as const;

const mediaKey = (sha256: string) => `media/${sha256}`;

/**
 * Sessions in Cloudflare Workers: entries in D1, media in R2 once per SHA-256. An append puts its new media in
 * R2 first (a content-addressed key, so a retry or a second writer puts the same bytes), then commits the
 * entry, its media rows and links and the session's count in one D1 batch, which is a transaction: a Worker
 * stopped between the two leaves at most an unreferenced R2 object, never an entry without its media.
 */
export class D1SessionStore implements SessionStore {
  readonly location: string;

  private constructor(
    private readonly db: D1Like,
    private readonly bucket: R2Like,
    location: string,
  ) {
    this.location = location;
  }

  static async open(db: D1Like, bucket: R2Like, location = 'd1+r2'): Promise<D1SessionStore> {
    await db.batch(D1_SESSION_SCHEMA.map((sql) => db.prepare(sql)));
    return new D1SessionStore(db, bucket, location);
  }

  async openSession(id: string, options: OpenSessionOptions = {}): Promise<SessionAppender> {
    const now = options.now ?? (() => new Date());
    const existing = await this.db.prepare('SELECT id FROM glimpse_sessions WHERE id = ?').bind(id).first();
    if (existing === null) {
      await this.db
        .prepare('INSERT OR IGNORE INTO glimpse_sessions (id, format_version, created, app) VALUES (?, ?, ?, ?)')
        .bind(id, SESSION_FORMAT_VERSION, now().toISOString(), JSON.stringify(options.app ?? {}))
        .all();
    }
    const resumed = existing === null ? undefined : await this.readSession(id);
    return new D1SessionAppender(this.db, this.bucket, id, now, resumed);
  }

  async readSession(id: string): Promise<StoredSession> {
    const row = await this.db
      .prepare('SELECT format_version, created, app FROM glimpse_sessions WHERE id = ?')
      .bind(id)
      .first<{ format_version: number; created: string; app: string }>();
    if (row === null) throw new SessionError('E_SESSION_STORE', `no session ${JSON.stringify(id)} in ${this.location}`);
    if (row.format_version > SESSION_FORMAT_VERSION)
      throw new SessionError(
        'E_SESSION_VERSION',
        `session ${id} was written by a newer format version; upgrade glimpse`,
      );
    const { results } = await this.db
      .prepare('SELECT seq, entry FROM glimpse_entries WHERE session_id = ? ORDER BY seq')
      .bind(id)
      .all<{ seq: number; entry: string }>();
    const { results: links } = await this.db
      .prepare('SELECT DISTINCT sha256 FROM glimpse_entry_media WHERE session_id = ?')
      .bind(id)
      .all<{ sha256: string }>();
    const media = new Map<string, string>();
    for (const { sha256 } of links) media.set(sha256, bytesToBase64(await this.readMedium(sha256)));
    const entries = results.map(({ seq, entry }) => {
      try {
        const parsed = JSON.parse(entry) as SessionEntry;
        return { at: parsed.at, message: decodeMessage(parsed.message, media) };
      } catch (cause) {
        const reason = cause instanceof Error ? cause.message : String(cause);
        throw new SessionError('E_SESSION_CORRUPT', `session ${id}, entry ${seq}: ${reason}`, undefined, { cause });
      }
    });
    const { results: lines } = await this.db
      .prepare('SELECT seq, after_entries, line FROM glimpse_media_lines WHERE session_id = ? ORDER BY seq')
      .bind(id)
      .all<{ seq: number; after_entries: number; line: string }>();
    const mediaLines = lines.flatMap(({ seq, after_entries, line }): StoredMediaLine[] => {
      try {
        const decoded = decodeMediaLine(JSON.parse(line)); // undefined: only of a provider this version does not know
        return decoded ? [{ ...decoded, afterEntries: after_entries }] : [];
      } catch (cause) {
        const reason = cause instanceof Error ? cause.message : String(cause);
        throw new SessionError('E_SESSION_CORRUPT', `session ${id}, media line ${seq}: ${reason}`, undefined, {
          cause,
        });
      }
    });
    return {
      header: {
        type: 'header',
        format: SESSION_FORMAT_NAME,
        version: row.format_version,
        created: row.created,
        app: JSON.parse(row.app),
      },
      entries,
      messages: entries.map((entry) => entry.message),
      media: mediaLines,
    };
  }

  async listSessions(): Promise<SessionListing[]> {
    const { results } = await this.db
      .prepare('SELECT id, created, entry_count FROM glimpse_sessions ORDER BY created, id')
      .all<{ id: string; created: string; entry_count: number }>();
    return results.map((row) => ({ id: row.id, created: row.created, entries: row.entry_count }));
  }

  async close(): Promise<void> {}

  /** A medium's bytes from R2, checked against its key: R2 and D1 are apart, so the join is verified. */
  private async readMedium(sha256: string): Promise<Uint8Array> {
    const object = await this.bucket.get(mediaKey(sha256));
    if (object === null)
      throw new SessionError('E_SESSION_CORRUPT', `medium ${sha256} is referred to in D1 but missing from R2`);
    const bytes = new Uint8Array(await object.arrayBuffer());
    if ((await sha256Hex(bytes)) !== sha256)
      throw new SessionError('E_SESSION_CORRUPT', `medium ${sha256} in R2 does not hash to its key`);
    return bytes;
  }
}

class D1SessionAppender implements SessionAppender {
  private queue: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly db: D1Like,
    private readonly bucket: R2Like,
    private readonly id: string,
    private readonly now: () => Date,
    readonly resumed: StoredSession | undefined,
  ) {}

  append(message: Message): Promise<void> {
    if (this.closed) return Promise.reject(new SessionError('E_SESSION_CLOSED', 'the session is closed'));
    const logged = encodeMessage(message);
    const step = this.queue.then(async () => {
      const { message: entryMessage, media } = await detachMedia(logged);
      const entry: SessionEntry = { type: 'message', at: this.now().toISOString(), message: entryMessage };
      await this.putNewMedia(media);
      const { db, id } = this;
      const seq = '(SELECT entry_count FROM glimpse_sessions WHERE id = ?)';
      await db.batch([
        db.prepare('UPDATE glimpse_sessions SET entry_count = entry_count + 1 WHERE id = ?').bind(id),
        ...media.map((medium) =>
          db
            .prepare('INSERT OR IGNORE INTO glimpse_media (sha256, media_type, byte_length) VALUES (?, ?, ?)')
            .bind(medium.sha256, medium.mediaType, medium.bytes.byteLength),
        ),
        db
          .prepare(`INSERT INTO glimpse_entries (session_id, seq, entry) VALUES (?, ${seq}, ?)`)
          .bind(id, id, JSON.stringify(entry)),
        ...media.map((medium) =>
          db
            .prepare(`INSERT INTO glimpse_entry_media (session_id, seq, sha256) VALUES (?, ${seq}, ?)`)
            .bind(id, id, medium.sha256),
        ),
      ]);
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
      // One statement, so its place (the entry count) and its seq are read in the same write.
      await this.db
        .prepare(
          `INSERT INTO glimpse_media_lines (session_id, seq, after_entries, line)
            SELECT ?, coalesce(max(seq), 0) + 1, (SELECT entry_count FROM glimpse_sessions WHERE id = ?), ?
            FROM glimpse_media_lines WHERE session_id = ?`,
        )
        .bind(this.id, this.id, JSON.stringify(line), this.id)
        .all();
    });
    this.queue = step.catch(() => undefined);
    return step;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.queue;
  }

  /** R2 gets only the media D1 does not list yet; an object already there is the same bytes by its key. */
  private async putNewMedia(media: StoredMedium[]): Promise<void> {
    for (const medium of media) {
      const known = await this.db
        .prepare('SELECT sha256 FROM glimpse_media WHERE sha256 = ?')
        .bind(medium.sha256)
        .first();
      if (known === null)
        await this.bucket.put(mediaKey(medium.sha256), medium.bytes, {
          httpMetadata: { contentType: medium.mediaType },
        });
    }
  }
}
