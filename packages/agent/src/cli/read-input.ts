import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import { FileError, isFileError } from '../fs/file-error.js';
import { nodeFileSystem } from '../fs/node-file-system.js';
import { readStreamBounded } from '../fs/read-stream-bounded.js';
import { DEFAULT_MAX_FILE_BYTES } from '../tools/file-limits.js';
import { resolveFilePath } from '../tools/resolve-file-path.js';
import { positiveInteger } from './args.js';

/** The `--max-file-bytes N` help line shared by the commands that read one input file. */
export const MAX_FILE_BYTES_USAGE = `  --max-file-bytes N refuse a FILE larger than N bytes without reading it (default ${DEFAULT_MAX_FILE_BYTES})`;

/** The help lines on FILE shared by the commands that read one input file. */
export const FILE_USAGE = `FILE is a path, or - for stdin. A name typed with plain spaces also finds a file whose name has
Unicode spaces (macOS screenshots: "Screenshot … at 10.41.07 PM.png" has U+202F before PM).`;

/**
 * Finds a command's input file the way view_file does: the exact path wins; when it is missing, a unique
 * name in the same folder that differs only in its kind of spaces (or accent encoding) is used, and
 * stderr says so. Several look-alikes are E_AMBIGUOUS_NAME.
 */
export async function resolveInputPath(path: string): Promise<string> {
  const resolved = await resolveFilePath(nodeFileSystem, path).catch((error: unknown) => {
    throw asGiven(error, path);
  });
  if (resolved.note !== undefined) process.stderr.write(`glimpse: ${resolved.note}\n`);
  return resolved.path;
}

/**
 * A FileError about `given` with the absolute path the file seam made of it (`No file at /home/me/x.png`) put back
 * as the user typed it (`No file at x.png`), in its message and `details.path`; anything else as it is.
 */
export function asGiven(error: unknown, given: string): unknown {
  const absolute = resolve(given);
  if (!isFileError(error) || absolute === given || error.details['path'] !== absolute) return error;
  return new FileError(
    error.code,
    error.message.replaceAll(absolute, given),
    { ...error.details, path: given },
    { cause: error.cause ?? error },
  );
}

/**
 * A FIFO, socket or device named as FILE is refused, as the file tools refuse it: opening a FIFO waits for a
 * writer that may never come, with nothing said. A pipe is read from stdin instead, where the shell opens it.
 */
function notARegularFile(path: string): FileError {
  return new FileError(
    'E_NOT_A_FILE',
    `${path} is a named pipe, socket or device, not a regular file, and a FILE must be a regular file. Give - as FILE to read it from stdin instead (glimpse … - < ${path}, or cmd | glimpse … -).`,
    { path, kind: 'other' },
  );
}

/**
 * Reads a command's input through the bounded file seam: `-` is stdin; a missing file, a directory, a FIFO or
 * anything over the cap is a typed FileError (E_FILE_NOT_FOUND, E_NOT_A_FILE, E_FILE_TOO_LARGE), never an
 * unbounded read or a wait without end.
 */
export async function readInputFile(path: string, flags: Map<string, string | true>): Promise<Uint8Array> {
  const maxBytes = positiveInteger(flags, '--max-file-bytes') ?? DEFAULT_MAX_FILE_BYTES;
  if (path === '-')
    return readStreamBounded(Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>, { path: 'stdin', maxBytes });
  const resolved = await resolveInputPath(path).catch((error: unknown) => {
    throw isFileError(error) && error.details['kind'] === 'other' ? notARegularFile(path) : error;
  });
  return nodeFileSystem.readBytes(resolved, { maxBytes }).catch((error: unknown) => {
    throw resolved === resolve(path) ? asGiven(error, path) : error;
  });
}
