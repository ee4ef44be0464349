// What qpdf --check reads beyond the cross-reference data, over pdf-lib's parse of the file: every page's
// content streams (it decodes them all, and a Flate stream zlib cannot inflate fails the check) and the
// object numbers (past 2^31 - 1 it gives up: "integer out of range"). Fatal: re-saving cannot mend either.
import type { IntegrityProblem } from './integrity-problem.js';
import { inflateFlate } from './pdf-inflate.js';

type PdfLib = typeof import('pdf-lib');
type PdfContext = import('pdf-lib').PDFContext;
type PdfDict = import('pdf-lib').PDFDict;

/** qpdf keeps object numbers in a signed 32-bit int. */
const MAX_OBJECT_NUMBER = 2 ** 31 - 1;

export function checkPdfContents(
  pdfLib: PdfLib,
  context: PdfContext,
  pages: readonly PdfDict[],
): IntegrityProblem | undefined {
  for (const [ref] of context.enumerateIndirectObjects()) {
    if (ref.objectNumber > MAX_OBJECT_NUMBER)
      return { fatal: true, problem: `an object is numbered ${ref.objectNumber}, past the largest a reader takes` };
  }
  const budget = { left: INFLATE_BUDGET };
  for (const [index, page] of pages.entries()) {
    const contents = page.get(pdfLib.PDFName.of('Contents'));
    if (contents === undefined) continue; // a blank page
    const resolved = context.lookup(contents);
    const streams = resolved instanceof pdfLib.PDFArray ? resolved.asArray().map((item) => context.lookup(item)) : [];
    if (resolved instanceof pdfLib.PDFArray && streams.some((stream) => !(stream instanceof pdfLib.PDFRawStream)))
      return { fatal: true, problem: `page ${index + 1} lists something that is not a stream among its contents` };
    for (const stream of resolved instanceof pdfLib.PDFArray ? streams : [resolved]) {
      if (!(stream instanceof pdfLib.PDFRawStream)) continue;
      const unknown = unknownFilter(pdfLib, stream);
      if (unknown)
        return { fatal: true, problem: `page ${index + 1}'s content stream names a filter no reader has (${unknown})` };
      const error = inflateError(pdfLib, stream, budget);
      if (error)
        return { fatal: true, problem: `page ${index + 1}'s content stream cannot be inflated (zlib: ${error})` };
    }
  }
  return undefined;
}

/** The filters the PDF specification defines, full and abbreviated (ISO 32000-1, 7.4 and 8.9.7). */
const FILTERS = new Set(
  'ASCIIHexDecode ASCII85Decode LZWDecode FlateDecode RunLengthDecode CCITTFaxDecode JBIG2Decode DCTDecode JPXDecode Crypt AHx A85 LZW Fl RL CCF DCT'.split(
    ' ',
  ),
);

/** A stream's /Filter entry that is not a filter the specification defines, if any. */
function unknownFilter(pdfLib: PdfLib, stream: import('pdf-lib').PDFRawStream): string | undefined {
  const filter = stream.dict.lookup(pdfLib.PDFName.of('Filter'));
  if (filter === undefined) return undefined;
  const names =
    filter instanceof pdfLib.PDFArray ? filter.asArray().map((item) => stream.dict.context.lookup(item)) : [filter];
  for (const name of names)
    if (!(name instanceof pdfLib.PDFName) || !FILTERS.has(name.asString().slice(1))) return String(name);
  return undefined;
}

/** Inflated bytes read per file: past it (a bomb, or a vast drawing) the rest goes unread rather than costing seconds. */
const INFLATE_BUDGET = 64 * 1024 * 1024;

/**
 * zlib's complaint about a Flate-encoded stream (the first filter), as qpdf would get it. A wrong Adler-32
 * checksum and data that stops early are not complaints: qpdf reads those, and so does every viewer.
 * The output is counted and dropped, never kept.
 */
function inflateError(
  pdfLib: PdfLib,
  stream: import('pdf-lib').PDFRawStream,
  budget: { left: number },
): string | undefined {
  const filter = stream.dict.lookup(pdfLib.PDFName.of('Filter'));
  const first = filter instanceof pdfLib.PDFArray ? filter.lookup(0) : filter;
  if (!(first instanceof pdfLib.PDFName) || first.asString() !== '/FlateDecode' || budget.left <= 0) return undefined;
  const inflated = inflateFlate(stream.contents, budget.left, false);
  budget.left -= inflated.produced;
  if (inflated.overLimit || inflated.error === undefined || /incorrect data check/.test(inflated.error))
    return undefined;
  return inflated.error;
}
