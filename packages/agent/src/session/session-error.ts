import { GlimpseError, isErrorOf } from '../errors.js';

/**
 * Stable codes of session errors, and when each is raised; the CLI prints them as `{"error":{"code", "message"}}`.
 * The table in docs/sessions.md is generated from this (`npm run docs`).
 */
export const SESSION_ERROR_CODES = {
  E_SESSION_CORRUPT: 'a committed line is not a valid entry (its 1-based number is in `line`)',
  E_SESSION_VERSION: 'the log was written by a newer format version',
  E_SESSION_CLOSED: 'the writer was closed, or an earlier write failed',
  E_SESSION_STORE:
    'the session store cannot be used: a bad session URL, a missing directory, an unreachable or refusing server, a missing optional driver, or no such session; the message says which and what to do',
} as const satisfies Record<`E_${string}`, string>;

export type SessionErrorCode = keyof typeof SESSION_ERROR_CODES;

/** The one error type of the session log. `line` (also in `details`) names the offending line when there is one. */
export class SessionError extends GlimpseError<SessionErrorCode, { line?: number }> {
  readonly line: number | undefined;

  constructor(code: SessionErrorCode, message: string, line?: number, options?: { cause?: unknown }) {
    super(
      'SessionError',
      code,
      line === undefined ? message : `line ${line}: ${message}`,
      line === undefined ? {} : { line },
      options,
    );
    this.line = line;
  }
}

export function isSessionError(error: unknown): error is SessionError {
  return isErrorOf<SessionError>(error, 'SessionError', SESSION_ERROR_CODES);
}
