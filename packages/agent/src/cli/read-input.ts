import { Readable } from 'node:stream';
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
  const resolved = await resolveFilePath(nodeFileSystem, path);
  if (resolved.note !== undefined) process.stderr.write(`glimpse: ${resolved.note}\n`);
  return resolved.path;
}

/**
 * Reads a command's input through the bounded file seam: `-` is stdin; a missing file, a directory or
 * anything over the cap is a typed FileError (E_FILE_NOT_FOUND, E_NOT_A_FILE, E_FILE_TOO_LARGE), never an
 * unbounded read.
 */
export async function readInputFile(path: string, flags: Map<string, string | true>): Promise<Uint8Array> {
  const maxBytes = positiveInteger(flags, '--max-file-bytes') ?? DEFAULT_MAX_FILE_BYTES;
  if (path === '-')
    return readStreamBounded(Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>, { path: 'stdin', maxBytes });
  return nodeFileSystem.readBytes(await resolveInputPath(path), { maxBytes });
}
