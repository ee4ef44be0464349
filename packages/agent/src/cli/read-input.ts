import { nodeFileSystem } from '../fs/node-file-system.js';
import { DEFAULT_MAX_FILE_BYTES } from '../tools/file-tool.js';
import { positiveInteger } from './args.js';

/** The `--max-file-bytes N` help line shared by the commands that read one input file. */
export const MAX_FILE_BYTES_USAGE = `  --max-file-bytes N refuse a FILE larger than N bytes without reading it (default ${DEFAULT_MAX_FILE_BYTES})`;

/**
 * Reads a command's input through the bounded file seam: a missing file, a directory or anything over
 * the cap is a typed FileError (E_FILE_NOT_FOUND, E_NOT_A_FILE, E_FILE_TOO_LARGE), never an unbounded read.
 */
export function readInputFile(path: string, flags: Map<string, string | true>): Promise<Uint8Array> {
  const maxBytes = positiveInteger(flags, '--max-file-bytes') ?? DEFAULT_MAX_FILE_BYTES;
  return nodeFileSystem.readBytes(path, { maxBytes });
}
