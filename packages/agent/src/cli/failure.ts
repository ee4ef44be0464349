import { fileErrorFromOsError, osErrorCode } from '../fs/os-error.js';
import { commandHint } from './cli-command-hints.js';
import { cliErrorMessage, detailStrings } from './cli-error-hint.js';

/**
 * The CLI's failure contract: one JSON line on stderr, `{"error":{"code":"E_…","message":"…"}}`, exit 1.
 * Every glimpse error type (MediaError, FileError, SessionError, …) carries a stable `E_…` code; an OS error
 * that reached here outside the file seam (ELOOP, EIO, …) gets its FileError code; anything else is a bug and
 * reported as E_INTERNAL. With the `command` that failed, a library option its message names is printed as that
 * command's flag (cli-error-hint.ts), and advice meant for the library is swapped for the command's own
 * (cli-command-hints.ts); paths and the arguments given (`argv`) are printed as they are.
 */
export function printFailure(
  error: unknown,
  command?: { name: string; usage: string },
  argv: readonly string[] = [],
): number {
  const failure = asFileError(error) ?? error;
  const raw = failure instanceof Error ? failure.message : String(failure);
  const verbatim = [...detailStrings(failure), ...argv.filter((arg) => !arg.startsWith('-'))];
  const message =
    command === undefined ? raw : cliErrorMessage(commandHint(failure, command) ?? raw, command, verbatim);
  process.stderr.write(`${JSON.stringify({ error: { code: stableCode(failure), message } })}\n`);
  return 1;
}

function asFileError(error: unknown) {
  if (osErrorCode(error) === undefined) return undefined;
  const path = typeof error === 'object' && error !== null && 'path' in error ? error.path : undefined;
  return fileErrorFromOsError(error, typeof path === 'string' ? path : 'a file');
}

function stableCode(error: unknown): string {
  if (error instanceof Error && 'code' in error && typeof error.code === 'string' && error.code.startsWith('E_'))
    return error.code;
  return 'E_INTERNAL';
}
