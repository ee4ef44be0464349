// A PDF page's text layer, read by PDFium in its reading order.
import { corrupt, type PdfDocument } from './document.js';
import type { Deadline } from '../../runtime/deadline.js';

/** The text of page `index` (from 0), lines ending with `\n`; '' for a page without a text layer (a scan). */
export function readPageText({ pdfium, handle }: PdfDocument, index: number, deadline: Deadline): string {
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
