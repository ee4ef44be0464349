// The PDF job: a PDF, or the pages of it the caller chose, checked as strict readers (qpdf) read it and sent
// as it is; one whose cross-reference data is wrong is re-saved with a fresh table (W_REPAIRED), one a
// strict reader cannot read is E_CORRUPT.
import { MediaError } from '../errors.js';
import type { PdfFormat } from '../formats/format.js';
import { selectPdfPages } from '../formats/pdf/select-pages.js';
import type { Limits } from '../presets/limits.js';
import type { Deadline } from '../runtime/deadline.js';
import type { PdfInfo, ProcessResult } from '../types.js';
import { refuseEncryptedPdf } from './encrypted-pdf.js';
import { original } from './result.js';

/**
 * `pages` (from 1, in order, no duplicates; checked by `process`) selects pages: what is sent and checked is
 * a PDF of those pages alone, so the byte and page limits apply to it; `original` still describes the file.
 */
export async function processPdf(
  bytes: Uint8Array,
  format: PdfFormat,
  limits: Limits,
  pages: readonly number[] | undefined,
  deadline: Deadline,
): Promise<ProcessResult> {
  if (limits.maxPdfPages === 0) {
    throw new MediaError(
      'E_UNSUPPORTED',
      'This provider takes no PDFs. Read the text with pdfText() and render pages with renderPdfPage() instead (CLI: glimpse text FILE, glimpse process FILE --page N).',
      { mediaType: 'application/pdf', pdfInput: false },
    );
  }
  // pdf-lib parses the whole file: refuse an oversized PDF before paying for that, unless pages are chosen
  // from it (then the PDF of those pages is what must fit).
  if (pages === undefined) assertPdfBytes(bytes, limits);
  const { info } = await format.probe(bytes);
  deadline.check("Reading the file's header");
  if (info.encrypted) await refuseEncryptedPdf(bytes);
  if (pages === undefined || wholeDocument(pages, readablePages(info))) {
    if (pages !== undefined) assertPdfBytes(bytes, limits);
    return checkedPdf(bytes, info, format, limits);
  }
  assertPagesExist(pages, readablePages(info));
  assertPageLimit(pages.length, limits, 'are chosen');
  const selected = await selectPdfPages(bytes, pages);
  deadline.check('Copying the chosen pages');
  assertPdfBytes(selected, limits, 'The PDF of the chosen pages');
  const chosen = await checkedPdf(selected, (await format.probe(selected)).info, format, limits);
  return { ...chosen, original: original(info), reencoded: true };
}

/** The page count of a PDF that may be read: encrypted ones are refused (refuseEncryptedPdf says more), and one without pages is damaged. */
function readablePages(info: PdfInfo): number {
  if (info.encrypted) {
    throw new MediaError(
      'E_PDF_ENCRYPTED',
      'The PDF is encrypted or password-protected, and providers refuse such files. Save an unencrypted copy (print to PDF) and send that.',
    );
  }
  const pages = info.pages ?? 0;
  if (pages < 1) throw new MediaError('E_CORRUPT', 'The PDF has no pages. The file is damaged: re-export it.');
  return pages;
}

/** Every page, in order: the file itself, not a copy of it. */
function wholeDocument(pages: readonly number[], pageCount: number): boolean {
  return pages.length === pageCount && pages.every((page, index) => page === index + 1);
}

function assertPagesExist(pages: readonly number[], pageCount: number): void {
  const missing = pages.filter((page) => page > pageCount);
  if (missing.length === 0) return;
  const valid = pageCount === 1 ? 'Choose page 1' : `Choose from pages 1–${pageCount}`;
  throw new MediaError(
    'E_INVALID_OPTIONS',
    `Page${missing.length === 1 ? '' : 's'} ${missing.join(', ')} ${missing.length === 1 ? 'does' : 'do'} not exist: the PDF has ${pageCount} page${pageCount === 1 ? '' : 's'}. ${valid}.`,
    { pages: [...pages], pageCount },
  );
}

function assertPageLimit(pageCount: number, limits: Limits, what: string): void {
  if (pageCount <= limits.maxPdfPages) return;
  throw new MediaError(
    'E_TOO_LARGE',
    what === 'has'
      ? `The PDF has ${pageCount} pages; the limit is ${limits.maxPdfPages}. Send a page range instead.`
      : `${pageCount} pages ${what}; the limit is ${limits.maxPdfPages}. Choose fewer pages.`,
    { pages: pageCount, maxPdfPages: limits.maxPdfPages },
  );
}

function assertPdfBytes(bytes: Uint8Array, limits: Limits, what = 'The PDF'): void {
  if (bytes.byteLength <= limits.maxPdfBytes) return;
  throw new MediaError(
    'E_TOO_LARGE',
    `${what} is ${bytes.byteLength} bytes; the limit is ${limits.maxPdfBytes}. Send fewer pages or a compressed copy.`,
    { bytes: bytes.byteLength, maxPdfBytes: limits.maxPdfBytes },
  );
}

/** The checks every PDF that is sent passes: structure, page limit, the full read, and the size of what goes. */
async function checkedPdf(bytes: Uint8Array, info: PdfInfo, format: PdfFormat, limits: Limits): Promise<ProcessResult> {
  const pages = readablePages(info);
  const damage = format.integrity.check(bytes);
  if (damage)
    throw new MediaError(
      'E_CORRUPT',
      `The PDF file is damaged: ${damage.problem}. Strict readers refuse it; re-export it (print to PDF).`,
      { format: 'PDF' },
    );
  assertPageLimit(pages, limits, 'has');
  const read = await format.integrity.verify(bytes);
  if (read?.fatal)
    throw new MediaError(
      'E_CORRUPT',
      `The PDF file is damaged: ${read.problem}. Strict readers refuse it; re-export it (print to PDF).`,
      { format: 'PDF' },
    );
  const data = read?.repaired ?? bytes;
  if (data.byteLength > limits.maxPdfBytes) {
    throw new MediaError(
      'E_TOO_LARGE',
      `The PDF is ${data.byteLength} bytes once its cross-reference table is rebuilt; the limit is ${limits.maxPdfBytes}. Send fewer pages or a compressed copy.`,
      { bytes: data.byteLength, maxPdfBytes: limits.maxPdfBytes },
    );
  }
  return {
    data,
    mediaType: 'application/pdf',
    width: info.width ?? Math.round(info.pageWidth ?? 0),
    height: info.height ?? Math.round(info.pageHeight ?? 0),
    bytes: data.byteLength,
    pages,
    original: original(info),
    resized: false,
    reencoded: read !== undefined,
    steps: [],
    warnings: read
      ? [
          {
            code: 'W_REPAIRED',
            message: `The PDF was re-saved with a new cross-reference table because ${read.problem}.`,
          },
        ]
      : [],
  };
}
