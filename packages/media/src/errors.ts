/** Stable error codes: callers and the CLI branch on these, never on messages. */
export type MediaErrorCode =
  | 'E_UNSUPPORTED' // a format no provider takes and we do not convert (TIFF, HEIC, AVIF, JXL, ICO, unknown bytes)
  | 'E_CORRUPT' // the bytes claim a format but cannot be read as it (truncated, malformed)
  | 'E_TOO_MANY_PIXELS' // decompression-bomb guard: refused from header facts before decoding
  | 'E_TOO_LARGE' // nothing we can produce fits the byte or page limit
  | 'E_PDF_ENCRYPTED' // providers refuse encrypted or password-protected PDFs
  | 'E_SVG_INVALID' // the SVG could not be parsed or rendered
  | 'E_WASM_UNAVAILABLE' // the runtime entry did not provide a codec module
  | 'E_INVALID_OPTIONS' // an option was out of range
  | 'E_TOO_COMPLEX' // refused from cheap facts: rendering or parsing it would take unbounded time (SVG text, filters, nesting)
  | 'E_TIMEOUT' // processing ran past options.timeoutMs
  | 'E_INVALID_INPUT'; // the input is not a Uint8Array of file bytes

/** The one error type of the media core: a stable `code` plus a message saying what was found and what to do. */
export class MediaError extends Error {
  readonly code: MediaErrorCode;
  readonly details: Record<string, unknown>;

  constructor(code: MediaErrorCode, message: string, details: Record<string, unknown> = {}, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MediaError';
    this.code = code;
    this.details = details;
  }
}

export function isMediaError(error: unknown): error is MediaError {
  return error instanceof MediaError;
}
