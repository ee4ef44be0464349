import type { Message } from '../types.js';
import { sha256OfBase64 } from './content-address.js';
import { decodeMediaLine } from './decode-media-line.js';
import { decodeMessage, object } from './decode-message.js';
import { isSessionError, SessionError } from './session-error.js';
import { SESSION_FORMAT_NAME, SESSION_FORMAT_VERSION, type SessionHeader } from './session-format.js';
import type { StoredMediaLine } from './session-store.js';

/** One committed entry with the 1-based line it came from. */
export interface LoadedEntry {
  line: number;
  at: string;
  message: Message;
}

/** One committed `media` line with the 1-based line it came from. */
export interface LoadedMediaLine extends StoredMediaLine {
  line: number;
}

/** What a log holds: every committed entry and media line, and the torn tail a crash left behind (if any). */
export interface LoadedSession {
  header: SessionHeader;
  entries: LoadedEntry[];
  messages: Message[];
  /** Every committed `media` line, in log order. */
  media: LoadedMediaLine[];
  /** Length of the committed lines in bytes: where the next append belongs. */
  committedBytes: number;
  /** An unterminated last line: a crash mid-append. It was dropped; nothing in it was ever committed. */
  tornTail?: { line: number; bytes: number };
  /** sha256 of every content-addressed medium stored so far (a writer resuming the log refers to them). */
  storedMedia: Set<string>;
}

const NEWLINE = 0x0a;

/**
 * Parses a session log. Only a line ended by `\n` is committed; an unterminated last line is a torn
 * append, reported in `tornTail` and dropped. Any committed line that is not a valid entry throws
 * `SessionError` E_SESSION_CORRUPT naming its line, because silently skipping it would lose history.
 */
export function parseSession(bytes: Uint8Array): LoadedSession {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const media = new Map<string, string>();
  const entries: LoadedEntry[] = [];
  const mediaLines: LoadedMediaLine[] = [];
  let header: SessionHeader | undefined;
  let start = 0;
  let line = 0;
  for (let end = bytes.indexOf(NEWLINE); end !== -1; end = bytes.indexOf(NEWLINE, start)) {
    line++;
    const value = parseLine(decoder, bytes.subarray(start, end), line);
    if (line === 1) header = parseHeader(value);
    else if (isMediaLine(value)) {
      const media = parseMediaLine(value, line, entries.length);
      if (media !== undefined) mediaLines.push(media);
    } else entries.push(parseEntry(value, media, line));
    start = end + 1;
  }
  const tornTail = start < bytes.length ? { line: line + 1, bytes: bytes.length - start } : undefined;
  if (header === undefined) {
    const found = tornTail ? 'only an unterminated first line (a crash while creating it)' : 'nothing';
    throw new SessionError(
      'E_SESSION_CORRUPT',
      `not a glimpse session: the header is missing, the file holds ${found}`,
      1,
    );
  }
  return {
    header,
    entries,
    messages: entries.map((entry) => entry.message),
    media: mediaLines,
    committedBytes: start,
    ...(tornTail && { tornTail }),
    storedMedia: new Set(media.keys()),
  };
}

function parseLine(decoder: TextDecoder, bytes: Uint8Array, line: number): unknown {
  if (bytes.length === 0)
    throw new SessionError('E_SESSION_CORRUPT', 'empty line; every committed line must hold one entry', line);
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch (cause) {
    throw new SessionError('E_SESSION_CORRUPT', 'not valid UTF-8', line, { cause });
  }
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new SessionError(
      'E_SESSION_CORRUPT',
      `not valid JSON (${cause instanceof Error ? cause.message : String(cause)})`,
      line,
      { cause },
    );
  }
}

function parseHeader(value: unknown): SessionHeader {
  const shapeError = (what: string) =>
    new SessionError('E_SESSION_CORRUPT', `not a glimpse session header: ${what}`, 1);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw shapeError('not a JSON object');
  const record: Record<string, unknown> = { ...value };
  if (record.type !== 'header' || record.format !== SESSION_FORMAT_NAME)
    throw shapeError(`expected type "header" and format "${SESSION_FORMAT_NAME}"`);
  const { version, created, app } = record;
  if (typeof version !== 'number' || !Number.isSafeInteger(version) || version < 1)
    throw shapeError('version is not a positive integer');
  if (version > SESSION_FORMAT_VERSION) {
    throw new SessionError(
      'E_SESSION_VERSION',
      `written by format version ${version}; this glimpse reads up to ${SESSION_FORMAT_VERSION}, upgrade it`,
      1,
    );
  }
  if (typeof created !== 'string') throw shapeError('created is not a string');
  if (typeof app !== 'object' || app === null || Array.isArray(app)) throw shapeError('app is not a JSON object');
  return { type: 'header', format: SESSION_FORMAT_NAME, version, created, app: { ...app } };
}

const isMediaLine = (value: unknown) =>
  typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'media';

/** A media line, or undefined for one that speaks only of a provider this version does not know. */
function parseMediaLine(value: unknown, line: number, afterEntries: number): LoadedMediaLine | undefined {
  try {
    const decoded = decodeMediaLine(value);
    return decoded && { ...decoded, line, afterEntries };
  } catch (error) {
    if (isSessionError(error) && error.line === undefined)
      throw new SessionError(error.code, error.message, line, { cause: error });
    throw error;
  }
}

function parseEntry(value: unknown, media: Map<string, string>, line: number): LoadedEntry {
  try {
    const record = object(value, 'entry');
    if (record.type !== 'message')
      throw new SessionError('E_SESSION_CORRUPT', `unknown entry type ${JSON.stringify(record.type)}`);
    if (typeof record.at !== 'string') throw new SessionError('E_SESSION_CORRUPT', 'entry time "at" is not a string');
    return { line, at: record.at, message: decodeMessage(record.message, media, sha256OfBase64) };
  } catch (error) {
    // The shape checks know the value, not the line it came from.
    if (isSessionError(error) && error.line === undefined)
      throw new SessionError(error.code, error.message, line, { cause: error });
    throw error;
  }
}
