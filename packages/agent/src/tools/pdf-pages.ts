import { probe } from '@glimpse/media';
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
    // An open end runs to the last page; one that starts past it ("3-" of 2 pages) asks for its first page.
    const last = match[2] === undefined ? first : match[2] === '' ? Math.max(first, pageCount) : Number(match[2]);
    if (first < 1 || last < first) throw invalid(`has an empty or reversed range "${piece}"`);
    // The first page that is not there: "5-9" of 2 pages names 5, "1-9" names 3.
    if (last > pageCount)
      throw invalid(
        `asks for page ${Math.max(first, pageCount + 1)}, but the PDF has ${pageCount} page${pageCount === 1 ? '' : 's'}`,
      );
    for (let page = first; page <= last; page++) if (!pages.includes(page)) pages.push(page);
  }
  return pages;
}

/** The page count from the PDF's header facts, or undefined for a PDF whose pages cannot be read (encrypted, damaged). */
export async function pdfPageCount(bytes: Uint8Array): Promise<number | undefined> {
  const info = await probe(bytes).catch(() => undefined);
  return info?.mediaType === 'application/pdf' && !info.encrypted ? info.pages : undefined;
}
