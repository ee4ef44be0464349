import { open, type FileHandle } from 'node:fs/promises';
import type { Message } from '../types.js';
import { addressMedia } from './content-address.js';
import { encodeMessage } from './encode-message.js';
import { parseSession, type LoadedSession } from './parse-session.js';
import { SessionError } from './session-error.js';
import {
  SESSION_FORMAT_NAME,
  SESSION_FORMAT_VERSION,
  type MediaFact,
  type SessionEntry,
  type SessionHeader,
  type SessionMediaLine,
} from './session-format.js';
import { decodeMediaFact } from './decode-media-line.js';

export interface SessionWriterOptions {
  /** Free-form metadata for the header of a new log (app name, version, model…). */
  app?: Record<string, unknown>;
  /** Store identical media once (sha256) and refer to them afterwards. Default false: every part inline. */
  contentAddressed?: boolean;
  /** fsync after every line, for logs that must survive power loss, not only a killed process. Default false. */
  fsync?: boolean;
  /** Clock for `created` and `at`; tests pin it. */
  now?: () => Date;
}

/**
 * Appends messages (and `media` lines) to a JSONL session log. Each entry is one `write` of the whole line, newline
 * included, on a descriptor opened with O_APPEND; appends from one process go through a queue, so
 * parallel tool calls appending at once land as whole lines in call order. Committed lines are never
 * rewritten: the only bytes a writer ever removes are a torn tail no reader counts as committed.
 */
export class SessionWriter {
  /** The log as it was when opened (header and committed entries); undefined for a new log. */
  readonly resumed: LoadedSession | undefined;
  private readonly handle: FileHandle;
  private readonly options: SessionWriterOptions;
  private readonly storedMedia: Set<string>;
  private queue: Promise<void> = Promise.resolve();
  private failure: SessionError | undefined;
  private closing: Promise<void> | undefined;

  private constructor(handle: FileHandle, options: SessionWriterOptions, resumed: LoadedSession | undefined) {
    this.handle = handle;
    this.options = options;
    this.resumed = resumed;
    this.storedMedia = new Set(resumed?.storedMedia);
  }

  /**
   * Opens `path` for appending, creating it with a header when missing. An existing log is parsed
   * first (a corrupt one throws); a torn tail is cut off so the next line does not glue onto it.
   */
  static async open(path: string, options: SessionWriterOptions = {}): Promise<SessionWriter> {
    const created = await createWithHeader(path, options);
    if (created) return new SessionWriter(created, options, undefined);
    const handle = await open(path, 'r+');
    try {
      const bytes = await handle.readFile();
      if (!bytes.includes(0x0a)) {
        // Not one committed line: a crash while the header was being written. Start the log afresh.
        await handle.truncate(0);
        await handle.close();
        return new SessionWriter(await writeHeader(await open(path, 'a'), options), options, undefined);
      }
      const resumed = parseSession(bytes);
      if (resumed.tornTail) await handle.truncate(resumed.committedBytes);
      await handle.close();
      return new SessionWriter(await open(path, 'a'), options, resumed);
    } catch (error) {
      await handle.close().catch(() => undefined);
      throw error;
    }
  }

  /** Appends one message. Resolves once its line is written; a failed write closes the writer. */
  append(message: Message): Promise<void> {
    if (this.closing) return Promise.reject(new SessionError('E_SESSION_CLOSED', 'the session writer is closed'));
    // Encoding now snapshots the message; media addressing waits for its turn in the queue, so a
    // reference only ever points at a line already on disk.
    const logged = encodeMessage(message);
    return this.enqueue(() => {
      const { message: addressed, introduced } = this.options.contentAddressed
        ? addressMedia(logged, this.storedMedia)
        : { message: logged, introduced: [] };
      const entry: SessionEntry = { type: 'message', at: this.now().toISOString(), message: addressed };
      return { line: entry, introduced };
    });
  }

  /** Appends one `media` line (a fact about a medium, by its sha256), in call order with the messages. */
  appendMedia(fact: MediaFact): Promise<void> {
    if (this.closing) return Promise.reject(new SessionError('E_SESSION_CLOSED', 'the session writer is closed'));
    let checked: MediaFact;
    try {
      checked = decodeMediaFact(fact);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.enqueue(() => ({
      line: { type: 'media', at: this.now().toISOString(), ...checked },
      introduced: [],
    }));
  }

  /** Writes the line `build` makes once the appends before it are written; a failed write closes the writer. */
  private enqueue(build: () => { line: SessionEntry | SessionMediaLine; introduced: string[] }): Promise<void> {
    const step = this.queue.then(async () => {
      if (this.failure) throw this.failure;
      const { line, introduced } = build();
      try {
        await writeLine(this.handle, line, this.options.fsync ?? false);
      } catch (cause) {
        this.failure = new SessionError(
          'E_SESSION_CLOSED',
          'an earlier append failed; reopen the log to continue',
          undefined,
          { cause },
        );
        throw cause;
      }
      for (const sha256 of introduced) this.storedMedia.add(sha256);
    });
    this.queue = step.catch(() => undefined);
    return step;
  }

  /** Waits for queued appends, then closes the file. Later appends reject with E_SESSION_CLOSED. */
  async close(): Promise<void> {
    if (this.closing) return this.closing;
    this.closing = this.queue.then(() => {
      this.failure ??= new SessionError('E_SESSION_CLOSED', 'the session writer is closed');
      return this.handle.close();
    });
    return this.closing;
  }

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }
}

/** Creates the log exclusively and writes its header; undefined when the file already exists. */
async function createWithHeader(path: string, options: SessionWriterOptions): Promise<FileHandle | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'ax');
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'EEXIST') return undefined;
    throw error;
  }
  return writeHeader(handle, options);
}

async function writeHeader(handle: FileHandle, options: SessionWriterOptions): Promise<FileHandle> {
  const header: SessionHeader = {
    type: 'header',
    format: SESSION_FORMAT_NAME,
    version: SESSION_FORMAT_VERSION,
    created: (options.now?.() ?? new Date()).toISOString(),
    app: options.app ?? {},
  };
  try {
    await writeLine(handle, header, options.fsync ?? false);
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
  return handle;
}

/** One line, newline included, in one write; the loop only continues a short write the OS returned. */
async function writeLine(
  handle: FileHandle,
  value: SessionHeader | SessionEntry | SessionMediaLine,
  fsync: boolean,
): Promise<void> {
  const bytes = Buffer.from(`${JSON.stringify(value)}\n`, 'utf8');
  let offset = 0;
  while (offset < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset, null);
    offset += bytesWritten;
  }
  if (fsync) await handle.sync();
}
