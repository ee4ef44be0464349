import { FileError, aborted } from './file-error.js';

/**
 * The operating system's error names (errno codes) as Node and Deno 2 both report them in `error.code`, and
 * Deno's error classes for the few it raises without one. One table for both file systems (and the CLI's
 * last resort), so a symlink loop or a failing disk reads the same everywhere: a `FileError`, never E_INTERNAL.
 */
const DENO_ERROR_NAMES: Readonly<Record<string, string>> = {
  NotFound: 'ENOENT',
  NotADirectory: 'ENOTDIR',
  IsADirectory: 'EISDIR',
  PermissionDenied: 'EACCES',
  NotCapable: 'EACCES',
  FilesystemLoop: 'ELOOP',
  Busy: 'EBUSY',
  TimedOut: 'ETIMEDOUT',
  Interrupted: 'EINTR',
};

/** OS failures that are neither the path nor the permissions: what each means, for E_IO_ERROR's message. */
const OTHER_OS_ERRORS: Readonly<Record<string, string>> = {
  EIO: 'an input/output error: the disk, device or network share failed',
  ENXIO: 'no such device: the device behind the path is gone',
  ENODEV: 'the file system does not support this operation',
  ESTALE: 'a stale network file handle: the network share dropped the file',
  ETIMEDOUT: 'the network file system timed out',
  EBUSY: 'the file or device is busy',
  ETXTBSY: 'the file is busy',
  EAGAIN: 'the resource is temporarily unavailable',
  EINTR: 'the call was interrupted',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'the file system is read-only',
  EFBIG: 'the file is too large for the file system',
  EOVERFLOW: 'the file is too large for this system to read',
  EEXIST: 'something already exists at the path',
  ENOTEMPTY: 'the folder is not empty',
  EXDEV: 'the operation crosses file systems',
  EINVAL: 'the file system refused the path or the operation as invalid',
  ECONNRESET: 'the network share reset the connection',
};

/** The errno name of an OS error (`ELOOP`, …), from its `code` or, under Deno, its class name. */
export function osErrorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = 'code' in error ? error.code : undefined;
  if (typeof code === 'string' && /^E[A-Z0-9]+$/.test(code) && !code.startsWith('E_')) return code;
  const name = error instanceof Error ? error.name : undefined;
  return name === undefined ? undefined : DENO_ERROR_NAMES[name];
}

/** A path shortened for a message: an over-long one (ENAMETOOLONG) would otherwise fill it. */
function shown(path: string): string {
  return path.length > 200 ? `${path.slice(0, 120)}…${path.slice(-60)} (${path.length} characters)` : path;
}

/**
 * The `FileError` for an OS error on `path`, or undefined when `error` is not one (a bug: let it through).
 * `permissionHint` is added to E_PERMISSION_DENIED (Deno: the --allow flag to pass).
 */
export function fileErrorFromOsError(
  error: unknown,
  path: string,
  { permissionHint = '' }: { permissionHint?: string } = {},
): FileError | undefined {
  const code = osErrorCode(error);
  if (code === undefined) {
    const name = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
    return name === 'ABORT_ERR' ? aborted(path, error) : undefined;
  }
  const at = shown(path);
  const details = { path, osCode: code };
  const make = (fileCode: ConstructorParameters<typeof FileError>[0], message: string) =>
    new FileError(fileCode, message, details, { cause: error });
  switch (code) {
    case 'ENOENT':
      return make('E_FILE_NOT_FOUND', `No file at ${at}.`);
    case 'ENOTDIR':
      return make('E_FILE_NOT_FOUND', `No file at ${at}: a part of the path is a file, not a folder.`);
    case 'EISDIR':
      return make('E_NOT_A_FILE', `${at} is a directory, not a file.`);
    case 'EACCES':
    case 'EPERM':
      return make('E_PERMISSION_DENIED', `Permission denied for ${at}${permissionHint}.`);
    case 'ELOOP':
      return make(
        'E_SYMLINK_LOOP',
        `${at} cannot be opened: its symlinks form a loop (or a chain too long to follow). Use the path of the real file, or ask the user to fix the link.`,
      );
    case 'ENAMETOOLONG':
      return make(
        'E_NAME_TOO_LONG',
        `The path ${at} is longer than the file system allows (a name over 255 bytes, or the whole path over its limit). Use a shorter path, relative to the working directory.`,
      );
    case 'EMFILE':
    case 'ENFILE':
      return make(
        'E_TOO_MANY_OPEN_FILES',
        `${at} cannot be opened now: the process has too many files open (${code}). Try again with fewer calls at once, or raise the limit (ulimit -n).`,
      );
    default:
      return make(
        'E_IO_ERROR',
        `The operating system could not access ${at}: ${code} (${OTHER_OS_ERRORS[code] ?? 'a system error'}). Try again; if it persists, ask the user to check the file or copy it elsewhere.`,
      );
  }
}
