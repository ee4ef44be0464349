import type { PdfInfo } from '../../types.js';
import { isMediaError, MediaError } from '../../errors.js';
import { indexOfAscii } from '../byte-reader.js';
import { assertPdfBounds } from './bounds.js';

const FORMAT = 'PDF';
/** Readers tolerate junk before `%PDF-`; Acrobat looks within the first 1024 bytes. */
const PDF_HEADER_WINDOW = 1024;
/** Readers require `%%EOF` within the last 1024 bytes; a file cut short loses it. */
const EOF_WINDOW = 1024;
/** Deeper page trees than this are malformed (real ones are a few levels deep) or cyclic. */
const MAX_PAGE_TREE_DEPTH = 64;

type PdfLib = typeof import('pdf-lib');
type PdfContext = import('pdf-lib').PDFContext;
type PdfDict = import('pdf-lib').PDFDict;

/**
 * PDF facts: page count, encryption, and the first page's visible size (crop box, turned by /Rotate) in points.
 * pdf-lib's parser reads the objects (imported lazily so image-only users never load it); the catalog and
 * page tree are walked here, leniently like PDF readers (a catalog or page without /Type is fine), and with
 * a depth bound. Encrypted files are reported, not refused: refusing is the caller's decision.
 * A truncated or unparseable file is `E_CORRUPT`; one whose declared object counts are out of range is
 * refused before parsing (see `assertPdfBounds`).
 */
export async function probePdf(bytes: Uint8Array): Promise<PdfInfo> {
  if (findPdfHeader(bytes) < 0) throw corrupt('there is no %PDF- header in the first 1024 bytes');
  if (!hasEofMarker(bytes)) throw corrupt('it is truncated: the %%EOF marker is missing from its end');
  assertPdfBounds(bytes);

  const pdfLib = await import('pdf-lib');
  let context: PdfContext;
  try {
    context = await parsePdfObjects(bytes);
  } catch (error) {
    // Encrypted object streams cannot be parsed without the key, but the file is still recognisably encrypted.
    if (mentionsEncrypt(bytes))
      return { mediaType: 'application/pdf', bytes: bytes.length, orientation: 1, frames: 1, encrypted: true };
    throw corrupt('its objects cannot be parsed', error);
  }

  const encrypted = context.lookup(context.trailerInfo.Encrypt) !== undefined;
  let pages: PdfDict[];
  try {
    pages = listPages(pdfLib, context);
  } catch (error) {
    if (encrypted) return { mediaType: 'application/pdf', bytes: bytes.length, orientation: 1, frames: 1, encrypted };
    throw isMediaError(error) ? error : corrupt('its page tree cannot be read', error);
  }
  if (pages.length === 0 && !encrypted) throw corrupt('it has no pages');
  let firstPage: ReturnType<typeof visibleSize> | undefined;
  try {
    firstPage = pages[0] && visibleSize(pdfLib, context, pages[0]);
  } catch (error) {
    // pdf-lib throws plain errors for an object of the wrong kind (a number where a box should be).
    throw isMediaError(error) ? error : corrupt("its first page's boxes cannot be read", error);
  }

  return {
    mediaType: 'application/pdf',
    bytes: bytes.length,
    orientation: 1,
    frames: 1,
    pages: pages.length,
    encrypted,
    ...(firstPage && {
      pageWidth: firstPage.width,
      pageHeight: firstPage.height,
      width: Math.round(firstPage.width),
      height: Math.round(firstPage.height),
    }),
  };
}

/**
 * pdf-lib's parse of the file, made once: `probePdf` parses it, and the integrity check that follows in
 * `process` (integrity.ts, and select-pages.ts for a page selection) takes the same parse instead of paying for a second. Kept only while the bytes are.
 */
const parsedObjects = new WeakMap<Uint8Array, PdfContext>();

export async function parsePdfObjects(bytes: Uint8Array): Promise<PdfContext> {
  const known = parsedObjects.get(bytes);
  if (known) return known;
  const pdfLib = await import('pdf-lib');
  // throwOnInvalidObject: a broken object fails here instead of pdf-lib guessing; numbers past 2^53 are capped.
  const context = await quietly(() =>
    pdfLib.PDFParser.forBytesWithOptions(bytes, Infinity, true, true).parseDocument(),
  );
  parsedObjects.set(bytes, context);
  return context;
}

/** The page leaves in order: nodes with /Kids are page tree nodes, the rest are pages. Cycles and depth are bounded. */
export function listPages(pdfLib: PdfLib, context: PdfContext): PdfDict[] {
  const catalog = context.lookupMaybe(context.trailerInfo.Root, pdfLib.PDFDict);
  if (!catalog) throw corrupt('its trailer has no document catalog (/Root)');
  const root = catalog.lookupMaybe(pdfLib.PDFName.of('Pages'), pdfLib.PDFDict);
  if (!root) throw corrupt('its catalog has no page tree (/Pages)');
  const pages: PdfDict[] = [];
  const seen = new Set<PdfDict>();
  const visit = (node: PdfDict, depth: number): void => {
    if (seen.has(node)) throw corrupt('its page tree refers back to itself');
    if (depth > MAX_PAGE_TREE_DEPTH) throw corrupt(`its page tree is more than ${MAX_PAGE_TREE_DEPTH} levels deep`);
    seen.add(node);
    const kids = node.lookupMaybe(pdfLib.PDFName.of('Kids'), pdfLib.PDFArray);
    if (!kids) {
      pages.push(node);
      return;
    }
    for (let i = 0; i < kids.size(); i++) {
      const kid = kids.lookupMaybe(i, pdfLib.PDFDict);
      if (kid) visit(kid, depth + 1);
    }
  };
  visit(root, 0);
  return pages;
}

/** The page's crop box (else media box, inherited from ancestors as the spec says), turned by /Rotate. */
function visibleSize(
  pdfLib: PdfLib,
  context: PdfContext,
  page: PdfDict,
): { width: number; height: number } | undefined {
  const inherited = (key: string) => {
    const name = pdfLib.PDFName.of(key);
    for (let node: PdfDict | undefined = page, depth = 0; node && depth <= MAX_PAGE_TREE_DEPTH; depth++) {
      const value = node.get(name);
      if (value !== undefined) return context.lookup(value);
      node = node.lookupMaybe(pdfLib.PDFName.of('Parent'), pdfLib.PDFDict);
    }
    return undefined;
  };
  const box = rectangle(pdfLib, inherited('CropBox')) ?? rectangle(pdfLib, inherited('MediaBox'));
  if (!box) return undefined;
  const rotation = inherited('Rotate');
  const angle = rotation instanceof pdfLib.PDFNumber ? rotation.asNumber() : 0;
  return Math.abs(angle) % 180 === 90 ? { width: box.height, height: box.width } : box;
}

function rectangle(pdfLib: PdfLib, value: unknown): { width: number; height: number } | undefined {
  if (!(value instanceof pdfLib.PDFArray) || value.size() !== 4) return undefined;
  const numbers = value.asArray().map((item) => (item instanceof pdfLib.PDFNumber ? item.asNumber() : NaN));
  const [x1 = NaN, y1 = NaN, x2 = NaN, y2 = NaN] = numbers;
  const width = Math.abs(x2 - x1);
  const height = Math.abs(y2 - y1);
  return Number.isFinite(width) && Number.isFinite(height) && width > 0 && height > 0 ? { width, height } : undefined;
}

/** pdf-lib's parser warns through console.warn ("Parsed number that is too large…"); its messages stay out of the host's stderr. */
const PDF_LIB_WARNINGS =
  /^(Parsed number that is too large|Trying to parse invalid object|Invalid object ref|Removing parsed object)/;
let quietDepth = 0;
let hostWarn: typeof console.warn | undefined;

async function quietly<T>(run: () => Promise<T>): Promise<T> {
  if (quietDepth++ === 0) {
    const original = console.warn;
    hostWarn = original;
    console.warn = (...args: unknown[]) => {
      if (typeof args[0] === 'string' && PDF_LIB_WARNINGS.test(args[0])) return;
      original.apply(console, args);
    };
  }
  try {
    return await run();
  } finally {
    if (--quietDepth === 0 && hostWarn) {
      console.warn = hostWarn;
      hostWarn = undefined;
    }
  }
}

/** Offset of `%PDF-` within the first 1024 bytes, or -1. */
export function findPdfHeader(bytes: Uint8Array): number {
  return indexOfAscii(bytes, '%PDF-', 0, PDF_HEADER_WINDOW);
}

/** Whether `%%EOF` sits within the last 1024 bytes (readers require it; a file cut short loses it). */
export function hasEofMarker(bytes: Uint8Array): boolean {
  return indexOfAscii(bytes, '%%EOF', bytes.length - EOF_WINDOW) >= 0;
}

function mentionsEncrypt(bytes: Uint8Array): boolean {
  return indexOfAscii(bytes, '/Encrypt') >= 0;
}

/** pdf-lib's own error text names its internals (line/column of a token, class names): it stays in `cause`, not the message. */
function corrupt(problem: string, cause?: unknown): MediaError {
  return new MediaError(
    'E_CORRUPT',
    `The ${FORMAT} file is malformed: ${problem}. Re-export or re-download it.`,
    { format: FORMAT },
    { cause },
  );
}
