/**
 * Every glimpse error carries this brand: a registered symbol, the same in every copy of the package (two
 * bundles of one app, a chunk loaded twice, another realm), where `instanceof` would tell copies apart. Its
 * value is the error's family (`FileError`, `SessionError`, …). `@glimpse/media`'s `MediaError` carries it too.
 */
export const GLIMPSE_ERROR: unique symbol = Symbol.for('glimpse.error');

/**
 * The one shape of glimpse's errors: a stable `code` callers branch on (never the message), a message that
 * says what was found and what to do, and `details` for programs. Each family declares its codes in one table
 * (`FILE_ERROR_CODES`, …), from which the docs' tables are generated and by which `is…Error` checks.
 */
export abstract class GlimpseError<
  Code extends `E_${string}`,
  Details extends object = Record<string, unknown>,
> extends Error {
  readonly [GLIMPSE_ERROR]: string;
  readonly code: Code;
  readonly details: Details;

  constructor(family: string, code: Code, message: string, details: Details, options?: { cause?: unknown }) {
    super(message, options);
    this.name = family;
    this[GLIMPSE_ERROR] = family;
    this.code = code;
    this.details = details;
  }
}

/** Any glimpse error (the media core's included): branded, with a string `code`. */
export function isGlimpseError(error: unknown): error is Error & { code: `E_${string}`; [GLIMPSE_ERROR]: unknown } {
  return (
    error instanceof Error &&
    GLIMPSE_ERROR in error &&
    error[GLIMPSE_ERROR] !== undefined &&
    'code' in error &&
    typeof error.code === 'string' &&
    error.code.startsWith('E_')
  );
}

/**
 * The family check behind `isFileError`, `isSessionError`, …: the brand names `family` and the code is one of
 * its `codes`. A guard that reads the error's fields, never its prototype.
 */
export function isErrorOf<E extends GlimpseError<`E_${string}`, object>>(
  error: unknown,
  family: string,
  codes: Readonly<Record<E['code'], unknown>>,
): error is E {
  return isGlimpseError(error) && error[GLIMPSE_ERROR] === family && Object.hasOwn(codes, error.code);
}
