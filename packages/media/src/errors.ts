/**
 * Stable error codes and when each is raised: callers and the CLI branch on these, never on messages.
 * The table in docs/formats-and-errors.md is generated from this (`npm run docs`).
 */
export const MEDIA_ERROR_CODES = {
  E_UNSUPPORTED:
    'unknown bytes, or a format glimpse does not convert (JPEG XL; HEIC/HEIF without @glimpse/heif, unless passed through; an AVIF/HEIF animation with no still image) or a feature its decoder lacks; a PDF for a route without PDFs',
  E_CORRUPT: 'the bytes claim a format but cannot be read as it (truncated, malformed)',
  E_TOO_MANY_PIXELS:
    'decompression-bomb guard: the header declares more than `maxInputPixels`, or a side over 65,535; refused before decoding',
  E_TOO_LARGE:
    "nothing glimpse can produce fits `maxBytes`; a PDF over the page or byte limit; a request body over `processRequest`'s `maxInputBytes` (16 MiB by default; `details.maxInputBytes`: a Worker answers 413), refused where it passes it",
  E_PDF_ENCRYPTED:
    'an encrypted PDF passed to a provider (providers refuse them); a password-protected PDF to read or render',
  E_SVG_INVALID: 'the SVG cannot be parsed or rendered',
  E_WASM_UNAVAILABLE: 'the runtime entry did not provide a codec module',
  E_INVALID_OPTIONS: 'an option out of range (e.g. `maxEdge: 0`)',
  E_TOO_COMPLEX:
    "refused from cheap facts before the work starts, because it would take unbounded time: SVG text over 10,000 characters (once per `<use>` of it), nesting over 256, over 50,000 elements after `<use>` and marker expansion (a `marker-mid` is one copy per vertex), filter work (morphology radius, turbulence octaves, convolve order, blurs) over the budget for the output's pixels, strokes over 1,000× the canvas, over 200,000 dashes, embedded images decoded over 5×10⁷ pixels in all (once per draw), painted area and path outlines (each shape's box in output pixels, layers, each path's segments, edge length and crossings, plus filter work) over the budget for the output's size; a JPEG of over 100 scans, or whose scans read its DCT blocks over 32 times in all (refused as that scan starts)",
  E_INVALID_INPUT:
    'the input is not a `Uint8Array` of file bytes; a request body longer than its Content-Length (`details.declaredBytes`), refused where it passes it; an upload that ended early (the body stream failed, or the body is shorter than its Content-Length) or a Content-Length that is not a length in bytes (`details.contentLength`): send it again',
  E_TIMEOUT:
    'the work took longer than its time budget (`timeoutMs`), checked between steps and between the bands of rows a decoder delivers (one codec call is not interrupted; in workerd the clock only moves on I/O), e.g. a PDF page built to be slow to draw; counted from when the job starts running, and `details.sharedWithOtherJobs` when other jobs ran in the process meanwhile (the time says little about the file then); with `details.stage: "upload"`, a `processRequest` body that stopped arriving (no bytes for `bodyIdleMs`, 10 s by default) or whose whole read passed `bodyTimeoutMs` (20 s by default) or a shorter `timeoutMs`: the read was ended and its memory admission given back (a Worker answers 408)',
  E_BUSY:
    'retry-able, nothing is wrong with the file: the memory governor (on by default in the Workers entry) could not start the job within its bounds, because the jobs running at once would pass its memory budget and the queue was full or the wait too long; `details.retryAfterMs` says when to send it again (in a Worker: answer 503 with Retry-After)',
} as const satisfies Record<`E_${string}`, string>;

export type MediaErrorCode = keyof typeof MEDIA_ERROR_CODES;

/**
 * The mark every glimpse error carries, holding its code family ('media' here). `instanceof` fails across two
 * copies of the class in one process (a bundled CLI beside an installed package); a symbol from the global
 * registry is the same in every copy, so `isMediaError` checks this instead.
 */
const GLIMPSE_ERROR = Symbol.for('glimpse.error');

/** The one error type of the media core: a stable `code` plus a message saying what was found and what to do. */
export class MediaError extends Error {
  readonly code: MediaErrorCode;
  readonly details: Record<string, unknown>;

  constructor(
    code: MediaErrorCode,
    message: string,
    details: Record<string, unknown> = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'MediaError';
    this.code = code;
    this.details = details;
    // Not enumerable: the brand stays out of what an error prints or compares as.
    Object.defineProperty(this, GLIMPSE_ERROR, { value: 'media' });
  }
}

/** Whether `error` is a `MediaError`, from this copy of the package or any other (it checks the brand). */
export function isMediaError(error: unknown): error is MediaError {
  return typeof error === 'object' && error !== null && Reflect.get(error, GLIMPSE_ERROR) === 'media';
}

/**
 * Whether the same call may succeed later, unchanged: `E_BUSY` (the isolate was busy; `details.retryAfterMs`
 * says when). Every other code is about the file or the options, and a retry reads the same.
 */
export function isRetryableMediaError(error: unknown): error is MediaError & { code: 'E_BUSY' } {
  return isMediaError(error) && error.code === 'E_BUSY';
}
