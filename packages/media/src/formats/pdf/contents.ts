// What qpdf --check reads of every page's content streams, over pdf-lib's parse of the file: it decodes and
// parses them all, and a Flate stream zlib cannot inflate, or an integer past the 64-bit range, fails the
// check. Fatal: re-saving cannot mend either, since pdf-lib copies content streams as they are.
import type { IntegrityProblem } from '../integrity-problem.js';
import { ContentNumbers } from './content-numbers.js';
import { inflateFlate } from './inflate.js';

type PdfLib = typeof import('pdf-lib');
type PdfContext = import('pdf-lib').PDFContext;
type PdfDict = import('pdf-lib').PDFDict;

export function checkPdfContents(
  pdfLib: PdfLib,
  context: PdfContext,
  pages: readonly PdfDict[],
): IntegrityProblem | undefined {
  const budget = { left: INFLATE_BUDGET };
  for (const [index, page] of pages.entries()) {
    const contents = page.get(pdfLib.PDFName.of('Contents'));
    if (contents === undefined) continue; // a blank page
    const resolved = context.lookup(contents);
    const streams = resolved instanceof pdfLib.PDFArray ? resolved.asArray().map((item) => context.lookup(item)) : [];
    if (resolved instanceof pdfLib.PDFArray && streams.some((stream) => !(stream instanceof pdfLib.PDFRawStream)))
      return { fatal: true, problem: `page ${index + 1} lists something that is not a stream among its contents` };
    const numbers = new ContentNumbers();
    for (const stream of resolved instanceof pdfLib.PDFArray ? streams : [resolved]) {
      if (!(stream instanceof pdfLib.PDFRawStream)) continue;
      const unknown = unknownFilter(pdfLib, stream);
      if (unknown)
        return { fatal: true, problem: `page ${index + 1}'s content stream names a filter no reader has (${unknown})` };
      const error = readContent(pdfLib, stream, budget, numbers);
      if (error)
        return { fatal: true, problem: `page ${index + 1}'s content stream cannot be inflated (zlib: ${error})` };
      if (numbers.tooLarge !== undefined)
        return {
          fatal: true,
          problem: `page ${index + 1}'s content holds the integer ${numbers.tooLarge}, past the 64-bit range readers take`,
        };
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
 * Reads a content stream's integers into `numbers` (unfiltered, or Flate alone without a predictor: what
 * real content streams are) and returns zlib's complaint about a Flate-encoded stream (the first filter), as
 * qpdf would get it. A wrong Adler-32 checksum and data that stops early are not complaints: qpdf reads
 * those, and so does every viewer. The output is counted, read and dropped, never kept.
 */
function readContent(
  pdfLib: PdfLib,
  stream: import('pdf-lib').PDFRawStream,
  budget: { left: number },
  numbers: ContentNumbers,
): string | undefined {
  const filter = stream.dict.lookup(pdfLib.PDFName.of('Filter'));
  const only = filter instanceof pdfLib.PDFArray ? (filter.size() === 1 ? filter.lookup(0) : undefined) : filter;
  const plain = stream.dict.get(pdfLib.PDFName.of('DecodeParms')) === undefined;
  if (filter === undefined && budget.left > 0) {
    budget.left -= stream.contents.length;
    numbers.push(stream.contents);
    numbers.endStream();
    return undefined;
  }
  const first = filter instanceof pdfLib.PDFArray ? filter.lookup(0) : filter;
  if (!(first instanceof pdfLib.PDFName) || first.asString() !== '/FlateDecode' || budget.left <= 0) return undefined;
  const read = plain && only === first ? (chunk: Uint8Array) => numbers.push(chunk) : undefined;
  const inflated = inflateFlate(stream.contents, budget.left, false, read);
  budget.left -= inflated.produced;
  numbers.endStream();
  if (inflated.overLimit || inflated.error === undefined || /incorrect data check/.test(inflated.error))
    return undefined;
  return inflated.error;
}
