// The objects pdf-lib parsed, checked for what it would write back out that a strict reader cannot read.
// pdf-lib keeps what it reads as it was (a hex string's text, a reference's numbers) and writes it back
// unchanged in a re-saved copy, so a damaged object in the file is a damaged object in the copy. One walk
// over every object (streams' dictionaries included; their data is pdf-contents.ts's) and the trailer's
// entries: linear in the objects, with no recursion and no lookups. Found by fuzzing against qpdf --check:
// - object numbers past 2^31 - 1 (qpdf reads them into 32-bit ints and gives up) and generations past 65535,
//   the largest the specification allows (a copy's table entry grows past its five digits; past 2^31 - 1
//   qpdf gives up on the table);
// - references that are not whole numbers: pdf-lib reads `.5 0 R` as a reference, qpdf as three tokens and
//   junk (fatal in the trailer: "/Encrypt … is not a dictionary");
// - numbers past the 64-bit range: qpdf fails to convert them and loses the object; pdf-lib caps positive
//   ones to 2^53 - 1 as it parses, but writes a negative one out in full;
// - hex strings holding a character that is not a hex digit: qpdf reads a broken token, then the rest of the
//   dictionary as junk (fatal in the trailer's /ID);
// - a page tree that lists object 0 among its kids: qpdf reads the free-list head as null and fails.
// Beyond these qpdf warns and reads on (exit 3), as with a reference to a missing object or a negative one.

import type { IntegrityProblem } from '../integrity-problem.js';

type PdfLib = typeof import('pdf-lib');
type PdfContext = import('pdf-lib').PDFContext;
type PdfObject = import('pdf-lib').PDFObject;

/** qpdf keeps object numbers in a signed 32-bit int. */
const MAX_OBJECT_NUMBER = 2 ** 31 - 1;
/** The largest generation number (ISO 32000-1, 7.5.4). */
const MAX_GENERATION = 65535;
/** Integers qpdf reads fit a signed 64-bit int; a double this large or larger does not. */
const INT64_LIMIT = 2 ** 63;

export function checkPdfObjects(pdfLib: PdfLib, context: PdfContext): IntegrityProblem | undefined {
  const fatal = (problem: string) => ({ fatal: true, problem });
  const kids = pdfLib.PDFName.of('Kids');
  const stack: PdfObject[] = [];
  let where = 'its trailer';
  const trailer = context.trailerInfo;
  for (const value of [trailer.Root, trailer.Encrypt, trailer.Info, trailer.ID]) if (value) stack.push(value);
  const objects = context.enumerateIndirectObjects();
  for (let next = 0; ; next++) {
    while (stack.length > 0) {
      const problem = checkValue(pdfLib, kids, stack.pop() as PdfObject, stack);
      if (problem) return fatal(`${where} ${problem}`);
    }
    const entry = objects[next];
    if (entry === undefined) return undefined;
    const [ref, object] = entry;
    where = `object ${ref.objectNumber} ${ref.generationNumber}`;
    const numbers = numberingProblem(ref);
    if (numbers) return fatal(`an object is numbered ${ref.objectNumber} ${ref.generationNumber}, ${numbers}`);
    stack.push(object);
  }
}

/** What is wrong with one value (pushing the values inside it onto `stack`), or undefined. */
function checkValue(
  pdfLib: PdfLib,
  kids: import('pdf-lib').PDFName,
  value: PdfObject,
  stack: PdfObject[],
): string | undefined {
  if (value instanceof pdfLib.PDFDict || value instanceof pdfLib.PDFRawStream) {
    const dict = value instanceof pdfLib.PDFRawStream ? value.dict : value;
    for (const [key, item] of dict.entries()) {
      if (key === kids && item instanceof pdfLib.PDFArray) {
        const zero = item.asArray().find((kid) => kid instanceof pdfLib.PDFRef && kid.objectNumber === 0);
        if (zero) return `lists ${zero} among its page tree's /Kids (object 0 is never an object)`;
      }
      stack.push(item);
    }
  } else if (value instanceof pdfLib.PDFArray) {
    for (const item of value.asArray()) stack.push(item);
  } else if (value instanceof pdfLib.PDFRef) {
    if (!Number.isSafeInteger(value.objectNumber) || !Number.isSafeInteger(value.generationNumber))
      return `holds the reference ${value}, which strict readers do not read as one (its numbers are not whole)`;
  } else if (value instanceof pdfLib.PDFNumber) {
    const number = value.asNumber();
    if (!Number.isFinite(number) || Math.abs(number) >= INT64_LIMIT)
      return `holds the number ${value}, past the 64-bit range readers take`;
  } else if (value instanceof pdfLib.PDFHexString) {
    const text = value.asString();
    const bad = /[^0-9A-Fa-f\0\t\n\f\r ]/.exec(text);
    if (bad) return `holds a hex string with ${JSON.stringify(bad[0])} in it, which is not a hex digit`;
  }
  return undefined;
}

/** What is wrong with an object's number and generation, or undefined. */
function numberingProblem(ref: import('pdf-lib').PDFRef): string | undefined {
  const { objectNumber: number, generationNumber: generation } = ref;
  if (!Number.isInteger(number) || number < 0 || number > MAX_OBJECT_NUMBER)
    return `where readers take object numbers from 0 to ${MAX_OBJECT_NUMBER}`;
  if (!Number.isInteger(generation) || generation < 0 || generation > MAX_GENERATION)
    return `where readers take generations from 0 to ${MAX_GENERATION}`;
  return undefined;
}
