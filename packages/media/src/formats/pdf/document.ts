import { MediaError, isMediaError } from '../../errors.js';
import { PdfiumFailure, startPdfium, type PdfiumExports } from './pdfium.js';

/** An open document in its own PDFium instance. Handles are valid only inside `withPdfDocument`. */
export interface PdfDocument {
  pdfium: PdfiumExports;
  handle: number;
  pageCount: number;
}

// FPDF_GetLastError codes (fpdfview.h).
const FPDF_ERR_PASSWORD = 4;
const FPDF_ERR_SECURITY = 5;

/**
 * Opens `bytes` in a PDFium instance of its own (startPdfium), runs `use`, and closes everything, whatever happens. PDFium's
 * failures become typed errors: a password → E_PDF_ENCRYPTED, memory past the cap → E_TOO_LARGE, anything
 * it cannot read → E_CORRUPT. A PDF encrypted without a user password (permissions only) opens, as in viewers.
 */
export async function withPdfDocument<T>(
  bytes: Uint8Array,
  maxMemory: number,
  use: (document: PdfDocument) => T | Promise<T>,
): Promise<T> {
  const pdfium = await startPdfium(maxMemory);
  const { api } = pdfium;
  let data = 0;
  let handle = 0;
  let clean = false;
  try {
    // PDFium reads the bytes in place for as long as the document is open.
    data = api.malloc(bytes.byteLength);
    if (data === 0) throw outOfMemory(maxMemory);
    new Uint8Array(api.memory.buffer, data, bytes.byteLength).set(bytes);
    handle = api.FPDF_LoadMemDocument(data, bytes.byteLength, 0);
    if (handle === 0) throw openFailure(api.FPDF_GetLastError());
    const pageCount = api.FPDF_GetPageCount(handle);
    if (pageCount < 1) throw corrupt('it has no pages');
    const result = await use({ pdfium: api, handle, pageCount });
    // PDFium carries on when an allocation fails and leaves out what it could not hold: a scan it had no
    // memory for comes back as a white page. Any refusal means the result may be missing something.
    if (pdfium.refusedMemory()) throw outOfMemory(maxMemory);
    clean = true;
    return result;
  } catch (error) {
    if (isMediaError(error)) throw error;
    if (pdfium.refusedMemory()) throw outOfMemory(maxMemory, error);
    const detail =
      error instanceof PdfiumFailure || error instanceof WebAssembly.RuntimeError ? error.message : String(error);
    throw corrupt(`PDFium stopped reading it (${detail})`, error);
  } finally {
    // Closed, a clean call's instance goes back for the next document; any other is dropped.
    try {
      if (handle !== 0) api.FPDF_CloseDocument(handle);
      if (data !== 0) api.free(data);
      if (clean) pdfium.keep();
    } catch {
      // An instance that trapped is unusable; its memory goes with it.
    }
  }
}

/** The page's zero-based index, or E_INVALID_OPTIONS naming the valid range. */
export function pageIndex(page: number, pageCount: number): number {
  if (!Number.isSafeInteger(page) || page < 1 || page > pageCount) {
    throw new MediaError(
      'E_INVALID_OPTIONS',
      `Page ${String(page)} does not exist: the PDF has ${pageCount} page${pageCount === 1 ? '' : 's'}, numbered from 1.`,
      { page, pageCount },
    );
  }
  return page - 1;
}

function openFailure(code: number): MediaError {
  if (code === FPDF_ERR_PASSWORD || code === FPDF_ERR_SECURITY) {
    return new MediaError(
      'E_PDF_ENCRYPTED',
      code === FPDF_ERR_PASSWORD
        ? 'The PDF is password-protected, so its pages cannot be read. Save an unencrypted copy (print to PDF) and use that.'
        : 'The PDF is encrypted with a security handler PDFium does not support. Save an unencrypted copy (print to PDF) and use that.',
      code === FPDF_ERR_PASSWORD
        ? { opensWithoutPassword: false }
        : { opensWithoutPassword: false, securityHandler: 'unsupported' },
    );
  }
  return corrupt(`PDFium cannot open it (error ${code})`);
}

export function corrupt(problem: string, cause?: unknown): MediaError {
  return new MediaError(
    'E_CORRUPT',
    `The PDF file is malformed: ${problem}. Re-export or re-download it.`,
    { format: 'PDF' },
    { cause },
  );
}

function outOfMemory(maxMemory: number, cause?: unknown): MediaError {
  return new MediaError(
    'E_TOO_LARGE',
    `Reading this PDF needs more than ${Math.round(maxMemory / 1024 / 1024)} MB of memory (a very large embedded image, or a page built to exhaust memory). Send a smaller PDF or other pages, or raise maxMemory where the host has the memory.`,
    { maxMemory },
    { cause },
  );
}
