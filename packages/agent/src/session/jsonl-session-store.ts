import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { loadSession } from './load-session.js';
import { SessionError } from './session-error.js';
import type {
  OpenSessionOptions,
  SessionAppender,
  SessionListing,
  SessionStore,
  StoredSession,
} from './session-store.js';
import { SessionWriter } from './session-writer.js';

/**
 * Sessions as JSONL logs in one directory, a session's id being its file name. Media are content-addressed
 * within each log (the first occurrence inline, later ones by sha256); each log stays one self-contained file.
 */
export class JsonlSessionStore implements SessionStore {
  readonly location: string;

  constructor(
    private readonly directory: string,
    private readonly writerOptions: { fsync?: boolean } = {},
  ) {
    this.location = directory;
  }

  openSession(id: string, options: OpenSessionOptions = {}): Promise<SessionAppender> {
    return SessionWriter.open(this.path(id), {
      ...this.writerOptions,
      ...(options.app !== undefined && { app: options.app }),
      ...(options.now !== undefined && { now: options.now }),
      contentAddressed: true,
    });
  }

  async readSession(id: string): Promise<StoredSession> {
    const path = this.path(id);
    const size = await stat(path).then(
      (facts) => facts.size,
      (cause: unknown) => {
        throw new SessionError('E_SESSION_STORE', `no session log ${path}; check the path`, undefined, { cause });
      },
    );
    return { ...(await loadSession(path)), storedBytes: size };
  }

  async listSessions(): Promise<SessionListing[]> {
    // Any file that reads as a session log is one, whatever its name ends in.
    const files = (await readdir(this.directory, { withFileTypes: true })).filter((entry) => entry.isFile());
    const listed: SessionListing[] = [];
    for (const { name } of files) {
      const session = await loadSession(join(this.directory, name)).catch(() => undefined);
      if (session) listed.push({ id: name, created: session.header.created, entries: session.entries.length });
    }
    return listed.sort((a, b) => a.created.localeCompare(b.created) || a.id.localeCompare(b.id));
  }

  async close(): Promise<void> {}

  private path(id: string): string {
    if (id === '' || id.includes('/') || id.includes('\\') || id === '.' || id === '..')
      throw new SessionError('E_SESSION_STORE', `a JSONL session id is a file name, got ${JSON.stringify(id)}`);
    return join(this.directory, id);
  }
}
