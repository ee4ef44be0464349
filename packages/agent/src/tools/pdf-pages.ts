import { MediaError, process, type PresetName, type ProcessResult } from '@glimpse/media';
import { FileError } from '../fs/file-error.js';

/**
 * Parses a page selection ("3", "1-3", "2,5-7", "4-") against a PDF of `pageCount` pages into page numbers
 * counted from 1, in order, without duplicates.
 */
export function parsePageRange(spec: string, pageCount: number): number[] {
  const invalid = (why: string) =>
    new FileError(
      'E_INVALID_ARGUMENTS',
      `pages ${JSON.stringify(spec)} ${why}. Give pages like "1-3" or "2,5-7" within 1-${pageCount}.`,
      { pages: spec, pageCount },
    );
  const pages: number[] = [];
  for (const piece of spec.split(',').map((p) => p.trim())) {
    const match = /^(\d+)(?:\s*-\s*(\d*))?$/.exec(piece);
    if (!match) throw invalid(`is not a page range`);
    const first = Number(match[1]);
    const last = match[2] === undefined ? first : match[2] === '' ? pageCount : Number(match[2]);
    if (first < 1 || last < first) throw invalid(`has an empty or reversed range "${piece}"`);
    if (last > pageCount)
      throw invalid(`asks for page ${last}, but the PDF has ${pageCount} page${pageCount === 1 ? '' : 's'}`);
    for (let page = first; page <= last; page++) if (!pages.includes(page)) pages.push(page);
  }
  return pages;
}

/** The page count as pdf-lib reads it, or undefined for a PDF it cannot open (encrypted, damaged). */
export async function pdfPageCount(bytes: Uint8Array): Promise<number | undefined> {
  const { PDFDocument } = await import('pdf-lib');
  return PDFDocument.load(bytes, { updateMetadata: false }).then(
    (document) => document.getPageCount(),
    () => undefined,
  );
}

/**
 * The chosen pages (counted from 1) of a PDF, sent as one PDF fitted to the preset: what `@glimpse/media`'s
 * `process(bytes, { preset, pages })` does, with the same contract (a page out of range is `E_INVALID_OPTIONS`
 * with `details.pageCount`). Until the core has it, pdf-lib cuts the pages out here and `process` checks the
 * result; then this body becomes that one call. pdf-lib is imported on first use: it is ~400 KB of JS.
 */
export async function processPdfPages(
  bytes: Uint8Array,
  { preset, pages }: { preset: PresetName; pages: readonly number[] },
): Promise<ProcessResult> {
  const { PDFDocument } = await import('pdf-lib');
  const source = await PDFDocument.load(bytes, { updateMetadata: false });
  const pageCount = source.getPageCount();
  const outside = pages.find((page) => !Number.isSafeInteger(page) || page < 1 || page > pageCount);
  if (outside !== undefined || pages.length === 0)
    throw new MediaError(
      'E_INVALID_OPTIONS',
      `pages must name pages 1-${pageCount} of this PDF; got ${JSON.stringify(pages)}.`,
      { pageCount, pages: [...pages] },
    );
  const target = await PDFDocument.create({ updateMetadata: false });
  const copied = await target.copyPages(
    source,
    pages.map((page) => page - 1),
  );
  for (const page of copied) target.addPage(page);
  return process(await target.save(), { preset });
}
