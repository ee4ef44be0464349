import { FileError, aborted, fileTooLarge } from './file-error.js';
import type { FileStat, FileSystem, ReadBytesOptions } from './file-system.js';
import { posixPaths } from './posix-paths.js';
import { readStreamBounded } from './read-stream-bounded.js';

/**
 * Anything that can stand in for a file's content: bytes, a browser `File`/`Blob`, or any source of a
 * byte stream (a Worker's request body, an R2 object…). `size` is trusted only as a first check; the
 * stream is still capped, so a source that delivers more than it announced is caught.
 */
export type ByteSource = Uint8Array | { readonly size?: number; stream(): ReadableStream<Uint8Array> };

export interface MemoryFileSystemOptions {
  /** Absolute POSIX paths to contents. Directories exist implicitly as parents of files. */
  files?: Record<string, ByteSource>;
  /** Symlinks: absolute path of the link to its target (absolute, or relative to the link's directory). */
  symlinks?: Record<string, string>;
  cwd?: string;
}

/** A file system in memory: tests, browsers (`File`/`Blob`), Workers (streams). Writes land in memory. */
export class MemoryFileSystem implements FileSystem {
  readonly paths = posixPaths;
  private readonly files = new Map<string, ByteSource>();
  private readonly symlinks = new Map<string, string>();
  private readonly workingDirectory: string;

  constructor({ files = {}, symlinks = {}, cwd = '/' }: MemoryFileSystemOptions = {}) {
    for (const [path, source] of Object.entries(files)) this.files.set(posixPaths.resolve(path), source);
    for (const [path, target] of Object.entries(symlinks)) this.symlinks.set(posixPaths.resolve(path), target);
    this.workingDirectory = posixPaths.resolve(cwd);
  }

  cwd(): string {
    return this.workingDirectory;
  }

  /** Follows symlinks segment by segment, as an operating system would; `undefined` when a link loops. */
  private follow(path: string, depth = 0): string | undefined {
    if (depth > 40) return undefined;
    let resolved = '/';
    for (const segment of posixPaths.resolve(this.workingDirectory, path).split('/').filter(Boolean)) {
      const next = posixPaths.join(resolved, segment);
      const link = this.symlinks.get(next);
      if (link === undefined) {
        resolved = next;
        continue;
      }
      const followed = this.follow(posixPaths.resolve(resolved, link), depth + 1);
      if (followed === undefined) return undefined;
      resolved = followed;
    }
    return resolved;
  }

  private isDirectory(path: string): boolean {
    if (path === '/') return true;
    const prefix = `${path}/`;
    for (const key of [...this.files.keys(), ...this.symlinks.keys()]) if (key.startsWith(prefix)) return true;
    return false;
  }

  private notFound(path: string): FileError {
    return new FileError('E_FILE_NOT_FOUND', `No file at ${path}.`, { path });
  }

  async stat(path: string): Promise<FileStat> {
    const resolved = this.follow(path);
    if (resolved === undefined) throw this.notFound(path);
    const source = this.files.get(resolved);
    if (source !== undefined)
      return { kind: 'file', size: source instanceof Uint8Array ? source.byteLength : source.size };
    if (this.isDirectory(resolved)) return { kind: 'directory', size: undefined };
    throw this.notFound(path);
  }

  async readBytes(path: string, { maxBytes, signal }: ReadBytesOptions): Promise<Uint8Array> {
    if (signal?.aborted) throw aborted(path, signal.reason);
    const info = await this.stat(path);
    if (info.kind !== 'file') throw new FileError('E_NOT_A_FILE', `${path} is a directory, not a file.`, { path });
    if (info.size !== undefined && info.size > maxBytes) throw fileTooLarge(path, { exact: info.size }, maxBytes);
    const source = this.files.get(this.follow(path) ?? path);
    if (source === undefined) throw this.notFound(path);
    if (source instanceof Uint8Array) return source.slice();
    return readStreamBounded(source.stream(), { path, maxBytes, signal });
  }

  async readDirectory(path: string): Promise<string[]> {
    const resolved = this.follow(path);
    if (resolved === undefined || !this.isDirectory(resolved)) throw this.notFound(path);
    const prefix = resolved === '/' ? '/' : `${resolved}/`;
    const names = new Set<string>();
    for (const key of [...this.files.keys(), ...this.symlinks.keys()]) {
      if (key.startsWith(prefix)) names.add(key.slice(prefix.length).split('/')[0]!);
    }
    return [...names].sort();
  }

  async realPath(path: string): Promise<string> {
    const resolved = this.follow(path);
    if (resolved === undefined || (!this.files.has(resolved) && !this.isDirectory(resolved))) throw this.notFound(path);
    return resolved;
  }

  async writeBytes(path: string, bytes: Uint8Array): Promise<void> {
    const resolved = this.follow(path);
    if (resolved === undefined) throw this.notFound(path);
    if (this.isDirectory(resolved))
      throw new FileError('E_NOT_A_FILE', `${path} is a directory, not a file.`, { path });
    this.files.set(resolved, bytes.slice());
  }
}
