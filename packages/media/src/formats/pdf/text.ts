import { deadlineAfter, type Deadline } from '../../runtime/deadline.js';
import { MediaError } from '../../errors.js';
import { positive } from '../../presets/limits.js';
import { corrupt, pageIndex, withPdfDocument, type PdfDocument } from './document.js';
import { PDFIUM_MAX_MEMORY } from './pdfium.js';

export interface PdfTextOptions {
  /** Pages to read, numbered from 1, in the order given. Default: every page. */
  pages?: readonly number[];
  /** Most pages one call reads; more is `E_TOO_LARGE`. Default 1000. */
  maxPages?: number;
  /** Time budget for the whole call; checked between pages. Default 30 s. */
  timeoutMs?: number;
  /** Most WASM memory PDFium may use for this call, in bytes; more is `E_TOO_LARGE`. Default 512 MiB (Workers entry: 80 MiB). */
  maxMemory?: number;
}

export interface PdfPageText {
  /** Page number, from 1. */
  page: number;
  /** The page's text in reading order as PDFium sees it; lines end with `\n`. Empty for a page without a text layer. */
  text: string;
}

export interface PdfText {
  /** Pages in the whole document. */
  pageCount: number;
  pages: PdfPageText[];
}

export const PDF_DEFAULTS = { maxPages: 1000, timeoutMs: 30_000, maxMemory: PDFIUM_MAX_MEMORY } as const;

/**
 * The text layer of the chosen pages. A scanned page has none: its `text` is empty, and only its image
 * (see `renderPdfPage`) shows what it says. Password-protected → E_PDF_ENCRYPTED, damaged → E_CORRUPT.
 */
export async function pdfText(bytes: Uint8Array, options: PdfTextOptions = {}): Promise<PdfText> {
  const deadline = deadlineAfter(options.timeoutMs ?? PDF_DEFAULTS.timeoutMs);
  const maxPages = options.maxPages ?? PDF_DEFAULTS.maxPages;
  const maxMemory = positive('maxMemory', options.maxMemory) ?? PDF_DEFAULTS.maxMemory;
  return withPdfDocument(bytes, 'pdfText', maxMemory, (document) => {
    const wanted = options.pages ?? Array.from({ length: document.pageCount }, (_, i) => i + 1);
    if (wanted.length > maxPages) {
      throw new MediaError(
        'E_TOO_LARGE',
        `Reading ${wanted.length} pages at once is over the limit of ${maxPages}. Ask for fewer pages (pages: [1, 2, …]), or raise maxPages.`,
        { pages: wanted.length, maxPages },
      );
    }
    const indices = wanted.map((page) => pageIndex(page, document.pageCount));
    const pages = indices.map((index) => ({ page: index + 1, text: pageText(document, index, deadline) }));
    return { pageCount: document.pageCount, pages };
  });
}

function pageText({ pdfium, handle }: PdfDocument, index: number, deadline: Deadline): string {
  deadline.check(`Reading the text of page ${index + 1}`);
  const page = pdfium.FPDF_LoadPage(handle, index);
  if (page === 0) throw corrupt(`page ${index + 1} cannot be loaded`);
  const textPage = pdfium.FPDFText_LoadPage(page);
  let out = 0;
  try {
    if (textPage === 0) throw corrupt(`the text of page ${index + 1} cannot be read`);
    const count = pdfium.FPDFText_CountChars(textPage);
    if (count <= 0) return '';
    // UTF-16 code units plus a terminating zero.
    out = pdfium.malloc((count + 1) * 2);
    if (out === 0) throw corrupt(`page ${index + 1} holds more text than fits in memory`);
    const written = pdfium.FPDFText_GetText(textPage, 0, count, out);
    return normalizeText(utf16(new Uint16Array(pdfium.memory.buffer, out, Math.max(0, written - 1))));
  } finally {
    if (out !== 0) pdfium.free(out);
    if (textPage !== 0) pdfium.FPDFText_ClosePage(textPage);
    pdfium.FPDF_ClosePage(page);
  }
}

/** UTF-16 code units to a string, in chunks (a spread of millions of arguments would overflow the stack). */
function utf16(units: Uint16Array): string {
  let text = '';
  for (let at = 0; at < units.length; at += 8192) text += String.fromCharCode(...units.subarray(at, at + 8192));
  return text;
}

/** PDFium ends lines with CRLF and marks a line-end hyphen it kept with U+0002; plain `\n` and `-` instead. */
function normalizeText(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: PDFium marks a soft hyphen with U+0002.
  return text.replace(/\r\n?/g, '\n').replace(/\u0002/g, '-');
}
