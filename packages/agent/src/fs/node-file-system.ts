import { open, readdir, realpath, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { FileError, aborted, fileTooLarge } from './file-error.js';
import { fileErrorFromOsError } from './os-error.js';
import type { FileStat, FileSystem, ReadBytesOptions } from './file-system.js';
import { concatChunks } from './read-stream-bounded.js';

/** Node's errno codes as the seam's stable codes (fs/os-error.ts); anything else is a bug and passes through. */
function fromNodeError(error: unknown, target: string): unknown {
  return fileErrorFromOsError(error, target) ?? error;
}

/** Chunk size of the streaming read. */
const CHUNK_BYTES = 64 * 1024;
/** The most one read of a regular file asks for (libuv reads at most 2 GiB in one call). */
const LARGEST_READ = 2 ** 30;

async function readBytes(target: string, { maxBytes, signal }: ReadBytesOptions): Promise<Uint8Array> {
  if (signal?.aborted) throw aborted(target, signal.reason);
  // Opening a pipe, or reading from one, can block until a writer shows up; an abort must not wait for either.
  let onAbort: (() => void) | undefined;
  const abortion = new Promise<never>((_, reject) => {
    onAbort = () => reject(aborted(target, signal?.reason));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  abortion.catch(() => undefined);
  const opening = open(target, 'r');
  let handle: Awaited<typeof opening>;
  try {
    handle = await Promise.race([opening, abortion]);
  } catch (error) {
    if (onAbort) signal?.removeEventListener('abort', onAbort);
    // An abandoned open still completes later: close what it opens.
    opening.then((late) => late.close()).catch(() => undefined);
    throw fromNodeError(error, target);
  }
  let closeLater = false;
  try {
    const info = await handle.stat();
    if (info.isDirectory())
      throw new FileError('E_NOT_A_FILE', `${target} is a directory, not a file.`, { path: target });
    // Regular files know their size: refuse before reading a byte. Pipes and devices report 0 and are caught below.
    if (info.isFile() && info.size > maxBytes) throw fileTooLarge(target, { exact: info.size }, maxBytes);
    const chunks: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      // A regular file is read whole in one call (and one more that finds its end), not chunk by chunk: each
      // read is a trip through libuv's thread pool, 27 of them for a 1.7 MB photo. The chunks are for pipes,
      // devices and a file that grows while it is read.
      const want = info.isFile() && info.size > total ? Math.min(info.size - total, LARGEST_READ) : CHUNK_BYTES;
      // Never ask for more than one byte past the cap: that byte is the proof the file is too large.
      const buffer = new Uint8Array(Math.min(want, maxBytes + 1 - total));
      const pending = handle.read(buffer, 0, buffer.length, null);
      pending.catch(() => undefined);
      let bytesRead: number;
      try {
        ({ bytesRead } = await Promise.race([pending, abortion]));
      } catch (error) {
        if (signal?.aborted) closeLater = true;
        throw fromNodeError(error, target);
      }
      if (bytesRead === 0) break;
      chunks.push(buffer.subarray(0, bytesRead));
      total += bytesRead;
      if (total > maxBytes) throw fileTooLarge(target, { atLeast: total }, maxBytes);
    }
    // A file read in its one call is returned as read, without a copy.
    const [only] = chunks;
    return chunks.length === 1 && only !== undefined && only.byteLength === only.buffer.byteLength
      ? only
      : concatChunks(chunks, total);
  } finally {
    if (onAbort) signal?.removeEventListener('abort', onAbort);
    // close() waits for a read still pending on a pipe; after an abort, let it finish in the background.
    const closing = handle.close().catch(() => undefined);
    if (!closeLater) await closing;
  }
}

/** The Node implementation of the seam, over `node:fs/promises`: the default wherever Node's entries are loaded. */
export const nodeFileSystem: FileSystem = {
  paths: path,
  cwd: () => process.cwd(),
  async stat(target): Promise<FileStat> {
    const info = await stat(target).catch((error: unknown) => Promise.reject(fromNodeError(error, target)));
    return {
      kind: info.isFile() ? 'file' : info.isDirectory() ? 'directory' : 'other',
      size: info.isFile() ? info.size : undefined,
    };
  },
  readBytes,
  readDirectory: (target) => readdir(target).catch((error: unknown) => Promise.reject(fromNodeError(error, target))),
  realPath: (target) => realpath(target).catch((error: unknown) => Promise.reject(fromNodeError(error, target))),
  writeBytes: (target, bytes) =>
    writeFile(target, bytes).catch((error: unknown) => Promise.reject(fromNodeError(error, target))),
};
