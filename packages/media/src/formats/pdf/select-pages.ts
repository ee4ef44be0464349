// A PDF holding only some pages of another, made by pdf-lib from the parse the probe already made (one
// parse of the source, however many pages are chosen).
import { corrupt } from './document.js';
import { listPages, parsePdfObjects } from './probe.js';

type PdfLib = typeof import('pdf-lib');
type PdfDict = import('pdf-lib').PDFDict;
type PdfObject = import('pdf-lib').PDFObject;

/** What a page takes from its ancestors in the page tree when it does not say itself (PDF 1.7, 7.7.3.4). */
const INHERITABLE = ['Resources', 'MediaBox', 'CropBox', 'Rotate'] as const;
/** As probe.ts bounds the page tree. */
const MAX_PAGE_TREE_DEPTH = 64;

/**
 * The pages `pages` (numbered from 1, in the order given, each at most once, all within the file) of the
 * PDF `bytes`, as a new PDF: each page with what it inherits written into it and every object it refers to
 * (contents, fonts, images, annotations) copied; the catalog, outline and metadata of the source are not.
 * A page pdf-lib cannot copy makes the file `E_CORRUPT`.
 */
export async function selectPdfPages(bytes: Uint8Array, pages: readonly number[]): Promise<Uint8Array> {
  const pdfLib = await import('pdf-lib');
  const context = await parsePdfObjects(bytes);
  const leaves = listPages(pdfLib, context);
  try {
    const target = await pdfLib.PDFDocument.create({ updateMetadata: false });
    const copier = pdfLib.PDFObjectCopier.for(context, target.context);
    for (const page of pages) {
      const leaf = leaves[page - 1];
      if (!leaf) throw new RangeError(`page ${page} is not in the file`);
      const copied = copier.copy(standalonePage(pdfLib, leaf));
      target.addPage(pdfLib.PDFPage.of(copied, target.context.register(copied), target));
    }
    return await target.save({ updateFieldAppearances: false });
  } catch (cause) {
    // pdf-lib's own words name its internals: they stay in `cause`.
    throw corrupt('the chosen pages cannot be copied out of it', cause);
  }
}

/**
 * The page as a leaf of its own: its entries, what it inherits from its ancestors, `/Type /Page` (which a
 * lenient file may leave out), and no `/Parent`, so copying it never pulls in the source's page tree.
 */
function standalonePage(pdfLib: PdfLib, page: PdfDict): import('pdf-lib').PDFPageLeaf {
  const entries = new Map(page.entries());
  for (const key of INHERITABLE) {
    const name = pdfLib.PDFName.of(key);
    const value = entries.has(name) ? undefined : inherited(pdfLib, page, name);
    if (value) entries.set(name, value);
  }
  entries.delete(pdfLib.PDFName.of('Parent'));
  entries.set(pdfLib.PDFName.of('Type'), pdfLib.PDFName.of('Page'));
  return pdfLib.PDFPageLeaf.fromMapWithContext(entries, page.context, false);
}

/** The nearest ancestor's value of `name`, if one has it. */
function inherited(pdfLib: PdfLib, page: PdfDict, name: import('pdf-lib').PDFName): PdfObject | undefined {
  let node = page.lookupMaybe(pdfLib.PDFName.of('Parent'), pdfLib.PDFDict);
  for (let depth = 0; node && depth <= MAX_PAGE_TREE_DEPTH; depth++) {
    const value = node.get(name);
    if (value !== undefined) return value;
    node = node.lookupMaybe(pdfLib.PDFName.of('Parent'), pdfLib.PDFDict);
  }
  return undefined;
}
