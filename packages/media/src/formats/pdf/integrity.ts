import type { IntegrityProblem, PdfReadProblem } from '../integrity-problem.js';

/** Last offset where any of the ASCII `texts` starts, searching back from the end, or -1. */
function lastIndexOfAny(bytes: Uint8Array, texts: readonly string[]): number {
  for (let at = bytes.length - 1; at >= 0; at--) {
    for (const text of texts) {
      if (bytes[at] !== text.charCodeAt(0) || at + text.length > bytes.length) continue;
      let matches = true;
      for (let j = 1; j < text.length && matches; j++) matches = bytes[at + j] === text.charCodeAt(j);
      if (matches) return at;
    }
  }
  return -1;
}

/**
 * What qpdf needs before it can open a PDF at all, found without parsing: a trailer dictionary (after a
 * `trailer` keyword, or the dictionary of a cross-reference stream) and a /Root entry naming the catalog.
 * pdf-lib finds the catalog of a file without them by scanning its objects, but qpdf refuses the file
 * ("unable to find trailer dictionary", "unable to find /Root dictionary"), and so may a provider.
 * Searched back from the end, where the last trailer is: a few KB of a well-formed file.
 * Fatal: there is nothing to re-encode a PDF into.
 */
export function checkPdfIntegrity(bytes: Uint8Array): IntegrityProblem | undefined {
  if (lastIndexOfAny(bytes, ['trailer', '/XRef']) < 0)
    return { fatal: true, problem: 'it has no trailer dictionary (no trailer keyword and no cross-reference stream)' };
  if (lastIndexOfAny(bytes, ['/Root']) < 0)
    return { fatal: true, problem: 'its trailer names no /Root (document catalog)' };
  return undefined;
}

/**
 * The full read of a PDF about to be sent, after `checkPdfIntegrity`: what qpdf --check reads beyond the
 * trailer (contents.ts, objects.ts, xref.ts), over the parse `probePdf` made.
 * - Page content streams that do not decode or hold an integer past 64 bits; objects whose numbers, numbers
 *   or hex strings a reader cannot take; a page tree listing object 0: fatal (pdf-lib would copy them).
 * - Cross-reference data that does not match the objects (a /Prev that is no offset, a stream entry of an
 *   unknown type or a field past 2^31 - 1 included), or a newest trailer whose /Root is not the catalog:
 *   qpdf rebuilds the table, or gives up when the trailer is only in a cross-reference stream, or finds no
 *   catalog. pdf-lib reads the objects without it, so the file is re-saved by pdf-lib with a fresh table and
 *   trailer (`repaired`), the objects written as they were read, the /Root the catalog pdf-lib found.
 *   The copy is what is sent, so it is read again as strictly as an untouched file, from its own bytes; one
 *   that still fails is fatal.
 * - A trailer that does not read as a dictionary (a hex string with a non-hex character, a string or
 *   dictionary left open): fatal, since the copy would carry what pdf-lib made of it.
 */
export async function verifyPdfIntegrity(bytes: Uint8Array): Promise<PdfReadProblem | undefined> {
  const problem = await readStrictly(bytes);
  if (problem === undefined) return undefined;
  if (problem.fatal) return { fatal: true, problem: problem.problem };
  const [pdfLib, { parsePdfObjects }] = await Promise.all([import('pdf-lib'), import('./probe.js')]);
  // The copy's trailer names the catalog listPages found (pdf-lib's /Root, which it recovers by scanning for
  // a catalog when the trailer's is not one), so it mends a /Root qpdf cannot follow.
  const context = await parsePdfObjects(bytes);
  const repaired = await pdfLib.PDFWriter.forContext(context, Infinity).serializeToBuffer();
  const copy = checkPdfIntegrity(repaired) ?? (await readStrictly(repaired));
  if (copy) return { fatal: true, problem: `${problem.problem}, and a re-saved copy still fails: ${copy.problem}` };
  return { fatal: false, problem: problem.problem, repaired };
}

/** What the strict read of `bytes` finds: fatal, or wrong only in its cross-reference data (re-saving mends it). */
async function readStrictly(bytes: Uint8Array): Promise<IntegrityProblem | undefined> {
  const [pdfLib, { parsePdfObjects, listPages }, { checkPdfContents }, { checkPdfObjects }, { checkPdfXref }] =
    await Promise.all([
      import('pdf-lib'),
      import('./probe.js'),
      import('./contents.js'),
      import('./objects.js'),
      import('./xref.js'),
    ]);
  const context = await parsePdfObjects(bytes);
  const fatal = checkPdfObjects(pdfLib, context) ?? checkPdfContents(pdfLib, context, listPages(pdfLib, context));
  if (fatal) return fatal;
  const isDictionary = (number: number, generation: number) =>
    context.lookup(pdfLib.PDFRef.of(number, generation)) instanceof pdfLib.PDFDict;
  return checkPdfXref(bytes, isDictionary);
}
