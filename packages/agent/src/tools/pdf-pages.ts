import { FileError } from '../fs/file-error.js';

/**
 * Parses a page selection ("3", "1-3", "2,5-7", "4-") against a PDF of `pageCount` pages into
 * zero-based page indices, in order, without duplicates.
 */
export function parsePageRange(spec: string, pageCount: number): number[] {
  const invalid = (why: string) =>
    new FileError(
      'E_INVALID_ARGUMENTS',
      `pages ${JSON.stringify(spec)} ${why}. Give pages like "1-3" or "2,5-7" within 1-${pageCount}.`,
      { pages: spec, pageCount },
    );
  const indices: number[] = [];
  for (const piece of spec.split(',').map((p) => p.trim())) {
    const match = /^(\d+)(?:\s*-\s*(\d*))?$/.exec(piece);
    if (!match) throw invalid(`is not a page range`);
    const first = Number(match[1]);
    const last = match[2] === undefined ? first : match[2] === '' ? pageCount : Number(match[2]);
    if (first < 1 || last < first) throw invalid(`has an empty or reversed range "${piece}"`);
    if (last > pageCount)
      throw invalid(`asks for page ${last}, but the PDF has ${pageCount} page${pageCount === 1 ? '' : 's'}`);
    for (let page = first; page <= last; page++) if (!indices.includes(page - 1)) indices.push(page - 1);
  }
  return indices;
}

/** A smaller PDF holding only the given pages (pdf-lib is imported on first use: it is ~400 KB of JS). */
export async function extractPdfPages(bytes: Uint8Array, indices: number[]): Promise<Uint8Array> {
  const { PDFDocument } = await import('pdf-lib');
  const source = await PDFDocument.load(bytes, { updateMetadata: false });
  const target = await PDFDocument.create({ updateMetadata: false });
  for (const page of await target.copyPages(source, indices)) target.addPage(page);
  return target.save();
}

/** The page count, read by pdf-lib (only used when a page range is asked for). */
export async function countPdfPages(bytes: Uint8Array): Promise<number> {
  const { PDFDocument } = await import('pdf-lib');
  return (await PDFDocument.load(bytes, { updateMetadata: false })).getPageCount();
}
