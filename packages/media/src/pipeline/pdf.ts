// The PDF job: a PDF checked as strict readers (qpdf) read it and sent as it is; one whose cross-reference
// data is wrong is re-saved with a fresh table (W_REPAIRED), one a strict reader cannot read is E_CORRUPT.
import { MediaError } from '../errors.js';
import type { PdfFormat } from '../formats/format.js';
import type { Limits } from '../presets/limits.js';
import type { Deadline } from '../runtime/deadline.js';
import type { PdfInfo, ProcessResult } from '../types.js';
import { original } from './result.js';

/** The PDF as it is, once it passes the checks (or re-saved, W_REPAIRED), or a typed error saying why not. */
export async function processPdf(
  bytes: Uint8Array,
  format: PdfFormat,
  limits: Limits,
  deadline: Deadline,
): Promise<ProcessResult> {
  if (limits.maxPdfPages === 0) {
    throw new MediaError(
      'E_UNSUPPORTED',
      'This provider takes no PDFs. Read the text with pdfText() and render pages with renderPdfPage() instead (CLI: glimpse text FILE, glimpse process FILE --page N).',
      { mediaType: 'application/pdf' },
    );
  }
  // pdf-lib parses the whole file: refuse an oversized PDF before paying for that.
  assertPdfBytes(bytes, limits);
  const { info } = await format.probe(bytes);
  deadline.check("Reading the file's header");
  return checkedPdf(bytes, info, format, limits);
}

/** The page count of a PDF that may be read: encrypted ones are refused, and one without pages is damaged. */
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

function assertPageLimit(pageCount: number, limits: Limits): void {
  if (pageCount <= limits.maxPdfPages) return;
  throw new MediaError(
    'E_TOO_LARGE',
    `The PDF has ${pageCount} pages; the limit is ${limits.maxPdfPages}. Send a page range instead.`,
    { pages: pageCount, maxPdfPages: limits.maxPdfPages },
  );
}

function assertPdfBytes(bytes: Uint8Array, limits: Limits): void {
  if (bytes.byteLength <= limits.maxPdfBytes) return;
  throw new MediaError(
    'E_TOO_LARGE',
    `The PDF is ${bytes.byteLength} bytes; the limit is ${limits.maxPdfBytes}. Send fewer pages or a compressed copy.`,
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
  assertPageLimit(pages, limits);
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
