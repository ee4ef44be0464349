import { GlimpseError, isErrorOf } from '../errors.js';

/**
 * Stable codes of the file seam and the file tools, and when each is raised: agents and the CLI branch on
 * these, never on messages. The table in docs/file-tools.md is generated from this (`npm run docs`).
 */
export const FILE_ERROR_CODES = {
  E_FILE_NOT_FOUND: 'nothing at the path, not even after folding Unicode spaces',
  E_NOT_A_FILE: 'a directory (or other non-file) where a file was expected',
  E_PERMISSION_DENIED: 'the operating system refused access',
  E_SYMLINK_LOOP: 'the symlinks on the path form a loop, or a chain too long to follow (ELOOP)',
  E_NAME_TOO_LONG: 'the path, or one name in it, is longer than the file system allows (ENAMETOOLONG)',
  E_TOO_MANY_OPEN_FILES: 'the process has too many files open (EMFILE, ENFILE): try again with fewer calls at once',
  E_IO_ERROR:
    'any other failure the operating system reported (EIO, EBUSY, ENOSPC, EROFS, …): the message and `details.osCode` name it',
  E_FILE_TOO_LARGE: 'the file is bigger than the read cap (stat said so, or the stream ran past it)',
  E_ABORTED: "the caller's `AbortSignal` fired",
  E_PATH_OUTSIDE_ROOT: 'the path (lexically or through a symlink) leaves the configured root',
  E_AMBIGUOUS_NAME: 'several names in the directory match once Unicode spaces are folded',
  E_INVALID_NAME: 'an upload name with a path separator, `..`, or nothing left after cleaning',
  E_INVALID_ARGUMENTS: 'a tool was called with arguments that do not match its schema',
  E_FILE_TYPE_MISMATCH: 'strict mode: the extension names another type than the content',
  E_NO_IMAGE_INPUT: 'the current model cannot take images',
  E_CAPABILITY_UNKNOWN: 'the current model is not in the capability registry and the app declared nothing',
  E_NO_FILE_SYSTEM: 'a file tool got no `fileSystem` in a runtime without a default one (browsers, Workers): pass one',
} as const satisfies Record<`E_${string}`, string>;

export type FileErrorCode = keyof typeof FILE_ERROR_CODES;

/** The one error type of the file seam and the file tools: a stable `code` plus a message saying what to do. */
export class FileError extends GlimpseError<FileErrorCode> {
  constructor(
    code: FileErrorCode,
    message: string,
    details: Record<string, unknown> = {},
    options?: { cause?: unknown },
  ) {
    super('FileError', code, message, details, options);
  }
}

export function isFileError(error: unknown): error is FileError {
  return isErrorOf<FileError>(error, 'FileError', FILE_ERROR_CODES);
}

/** The cap error, shared by every implementation so the message is the same everywhere. */
export function fileTooLarge(path: string, size: { exact: number } | { atLeast: number }, maxBytes: number): FileError {
  const found =
    'exact' in size
      ? `${size.exact} bytes`
      : `at least ${size.atLeast} bytes (it grew after stat, or its size was not known in advance)`;
  return new FileError(
    'E_FILE_TOO_LARGE',
    `${path} is ${found}, over the ${maxBytes}-byte read limit. Use a smaller file or raise the limit (--max-file-bytes / maxFileBytes).`,
    { path, maxBytes, ...('exact' in size ? { size: size.exact } : { sizeAtLeast: size.atLeast }) },
  );
}

export function aborted(path: string, cause?: unknown): FileError {
  return new FileError('E_ABORTED', `Reading ${path} was aborted.`, { path }, { cause });
}
