/**
 * The file-system seam of the file tools. Tools never touch `node:fs` or `Deno` directly; each runtime
 * provides one of these (Node, Deno, memory — browsers and Workers hand their `File`/`Blob`s or any
 * byte stream to the memory one).
 *
 * Rules every implementation keeps:
 * - `readBytes` is bounded: when `stat` already reports more than `maxBytes` it refuses without reading;
 *   while streaming, the first byte past `maxBytes` stops the read (a file that grows after stat is
 *   caught). Both fail with `E_FILE_TOO_LARGE`. At most `maxBytes` + one chunk is ever buffered.
 * - `signal` is honoured before and during the read (`E_ABORTED`).
 * - Failures are `FileError`s with stable codes (`E_FILE_NOT_FOUND`, `E_NOT_A_FILE`, …).
 */
export interface FileSystem {
  /** Path arithmetic in this file system's own syntax. */
  readonly paths: PathOps;
  /** The directory relative paths are resolved against when the tools have no root. */
  cwd(): string;
  stat(path: string): Promise<FileStat>;
  readBytes(path: string, options: ReadBytesOptions): Promise<Uint8Array>;
  /** Names (not paths) of the entries of a directory. */
  readDirectory(path: string): Promise<string[]>;
  /** The path with every symlink resolved; fails with `E_FILE_NOT_FOUND` when it does not exist. */
  realPath(path: string): Promise<string>;
  /** Creates or replaces a file (parent directories must exist). */
  writeBytes(path: string, bytes: Uint8Array): Promise<void>;
}

export interface FileStat {
  kind: 'file' | 'directory' | 'other';
  /** Bytes, when known (pipes, devices and some streams do not know their size). */
  size: number | undefined;
}

export interface ReadBytesOptions {
  /** Refuse (`E_FILE_TOO_LARGE`) rather than buffer more than this many bytes. Required: no read is unbounded. */
  maxBytes: number;
  signal?: AbortSignal;
}

/** The subset of `node:path` the tools need; `posixPaths` implements it without Node. */
export interface PathOps {
  readonly sep: string;
  isAbsolute(path: string): boolean;
  resolve(...paths: string[]): string;
  relative(from: string, to: string): string;
  dirname(path: string): string;
  basename(path: string): string;
  extname(path: string): string;
  join(...paths: string[]): string;
}
