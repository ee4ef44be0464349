import { FileError, aborted, fileTooLarge } from './file-error.js';
import { fileErrorFromOsError } from './os-error.js';
import type { FileStat, FileSystem, ReadBytesOptions } from './file-system.js';
import { posixPaths } from './posix-paths.js';
import { readStreamBounded } from './read-stream-bounded.js';

/** The slice of the `Deno` namespace this file system uses (declared here so Node's typecheck needs no Deno types). */
export interface DenoFileApi {
  cwd(): string;
  stat(path: string): Promise<{ isFile: boolean; isDirectory: boolean; size: number }>;
  open(
    path: string,
    options: { read: true },
  ): Promise<{
    stat(): Promise<{ isFile: boolean; isDirectory: boolean; size: number }>;
    readable: ReadableStream<Uint8Array>;
    close(): void;
  }>;
  readDir(path: string): AsyncIterable<{ name: string }>;
  realPath(path: string): Promise<string>;
  writeFile(path: string, data: Uint8Array): Promise<void>;
}

/** Deno 2's errors carry the errno code (and a class name, `Deno.errors.FilesystemLoop` …): fs/os-error.ts maps both. */
function fromDenoError(error: unknown, path: string): unknown {
  return (
    fileErrorFromOsError(error, path, { permissionHint: ' (run Deno with --allow-read / --allow-write)' }) ?? error
  );
}

function isDenoFileApi(value: unknown): value is DenoFileApi {
  return typeof value === 'object' && value !== null && 'open' in value && 'readDir' in value && 'realPath' in value;
}

/** The Deno implementation of the seam. Pass `Deno` explicitly, or let it find the global. */
export function denoFileSystem(deno: unknown = Reflect.get(globalThis, 'Deno')): FileSystem {
  if (!isDenoFileApi(deno))
    throw new TypeError('denoFileSystem() needs the Deno namespace: call it under Deno or pass Deno.');
  const wrap = <T>(path: string, promise: Promise<T>) =>
    promise.catch((error: unknown) => Promise.reject(fromDenoError(error, path)));
  return {
    paths: posixPaths,
    cwd: () => deno.cwd(),
    async stat(path): Promise<FileStat> {
      const info = await wrap(path, deno.stat(path));
      return {
        kind: info.isFile ? 'file' : info.isDirectory ? 'directory' : 'other',
        size: info.isFile ? info.size : undefined,
      };
    },
    async readBytes(path, { maxBytes, signal }: ReadBytesOptions) {
      if (signal?.aborted) throw aborted(path, signal.reason);
      const file = await wrap(path, deno.open(path, { read: true }));
      let streamed = false;
      try {
        const info = await wrap(path, file.stat());
        if (info.isDirectory) throw new FileError('E_NOT_A_FILE', `${path} is a directory, not a file.`, { path });
        if (info.isFile && info.size > maxBytes) throw fileTooLarge(path, { exact: info.size }, maxBytes);
        streamed = true; // the readable closes the file when it ends or is cancelled
        return await readStreamBounded(file.readable, { path, maxBytes, signal });
      } finally {
        if (!streamed) file.close();
      }
    },
    async readDirectory(path) {
      const names: string[] = [];
      try {
        for await (const entry of deno.readDir(path)) names.push(entry.name);
      } catch (error) {
        throw fromDenoError(error, path);
      }
      return names.sort();
    },
    realPath: (path) => wrap(path, deno.realPath(path)),
    writeBytes: (path, bytes) => wrap(path, deno.writeFile(path, bytes)),
  };
}
