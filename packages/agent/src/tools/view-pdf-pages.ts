import { pdfText, renderPdfPage, type PresetName, type WorkingSize } from '@glimpse/media';
import { toMediaPart } from '../results/to-media-part.js';
import type { Part } from '../types.js';
import { formatBytes } from './format-bytes.js';
import { parsePageRange } from './pdf-pages.js';

/** How much of a PDF `view_file` shows when it reads one instead of attaching it. */
export const PDF_VIEW_LIMITS = {
  /** Characters of text when no pages are named: pages from the first, while they fit. */
  defaultCharacters: 20_000,
  /** Characters of text for pages the call names. */
  namedCharacters: 100_000,
  /** Page images when no pages are named. */
  defaultImages: 3,
  /** Page images one call returns at most. */
  maxImages: 10,
} as const;

export interface PdfPagesRequest {
  name: string;
  /** The `pages` argument as given ("1-3", "2,5-7"), if any. */
  pages?: string;
  /** Text, page images, or both (a model without PDF input that sees images). */
  text: boolean;
  images: boolean;
  preset: PresetName;
  /** The model's working size, where the registry knows it: pages are rendered to it. */
  workingSize?: WorkingSize;
}

/**
 * A PDF read for a model instead of attached: the text of the chosen pages, each page marked, within a
 * character budget; images of the first few chosen pages; and a note with the page count and how to ask
 * for more. A page without a text layer (a scan) is said to be one, so the model looks at its image.
 */
export async function viewPdfPages(bytes: Uint8Array, request: PdfPagesRequest): Promise<Part[]> {
  const { pageCount } = await pdfText(bytes, { pages: [] });
  const named = request.pages === undefined ? undefined : parsePageRange(request.pages, pageCount);
  const chosen = named ?? Array.from({ length: pageCount }, (_, i) => i + 1);
  const notes: string[] = [];
  const lines: string[] = [];

  let shownText: number[] = [];
  let scans: number[] = [];
  if (request.text) {
    const read = await readText(
      bytes,
      chosen,
      named === undefined ? PDF_VIEW_LIMITS.defaultCharacters : PDF_VIEW_LIMITS.namedCharacters,
    );
    shownText = read.shown;
    scans = read.scans;
    lines.push(...read.lines);
    if (read.cut !== undefined) notes.push(`The text of page ${read.cut} is cut at the character budget.`);
  }

  const imagePages = request.images
    ? chosen.slice(0, named === undefined ? PDF_VIEW_LIMITS.defaultImages : PDF_VIEW_LIMITS.maxImages)
    : [];
  const images: Part[] = [];
  for (const page of imagePages) {
    images.push(
      toMediaPart(
        await renderPdfPage(bytes, page, {
          preset: request.preset,
          ...(request.workingSize !== undefined && { workingSize: request.workingSize }),
        }),
      ),
    );
  }

  const what = [
    request.text ? `text of ${describe(shownText, pageCount)}` : undefined,
    imagePages.length > 0 ? `images of ${describe(imagePages, pageCount)}` : undefined,
  ]
    .filter(Boolean)
    .join(' and ');
  const header = `${request.name}: PDF, ${pageCount} page${pageCount === 1 ? '' : 's'}, ${formatBytes(bytes.byteLength)}; ${what || 'nothing'} shown below.`;
  if (request.text && scans.length > 0) {
    notes.push(
      `${describe(scans, pageCount, true)} no text layer (scanned or drawn); ${request.images ? 'read them from the page images' : 'this model cannot see images, so their content is not available'}.`,
    );
  }
  const more = morePages(chosen, request.text ? shownText : [], imagePages, pageCount, request.images);
  if (more !== undefined) notes.push(more);
  if (imagePages.length > 0) notes.push(`The images follow in page order: ${imagePages.join(', ')}.`);

  const text = [header, ...notes.map((note) => `[${note}]`), ...lines].join('\n');
  return [{ type: 'text', text }, ...images];
}

async function readText(bytes: Uint8Array, pages: number[], budget: number) {
  const lines: string[] = [];
  const shown: number[] = [];
  const scans: number[] = [];
  let used = 0;
  let cut: number | undefined;
  // Pages are read in batches, so a long document is not read past the budget.
  for (let at = 0; at < pages.length && used < budget; at += 20) {
    const { pages: batch, pageCount } = await pdfText(bytes, { pages: pages.slice(at, at + 20) });
    for (const { page, text } of batch) {
      if (used >= budget) break;
      const body = text.trim();
      if (body === '') scans.push(page);
      const room = budget - used;
      lines.push(
        `--- page ${page} of ${pageCount} ---`,
        body.length > room ? `${body.slice(0, room)}…` : body === '' ? '(no text on this page)' : body,
      );
      if (body.length > room) cut = page;
      used += Math.min(body.length, room);
      shown.push(page);
    }
  }
  return { lines, shown, scans, cut };
}

/** "pages 1-3 of 12", "page 4 of 12", "pages 1, 5, 9 of 12" — runs of pages joined with hyphens. */
function describe(pages: number[], pageCount: number, subject = false): string {
  if (pages.length === 0) return 'no pages';
  const runs: string[] = [];
  for (let i = 0; i < pages.length; ) {
    let j = i;
    while (j + 1 < pages.length && pages[j + 1] === pages[j]! + 1) j++;
    runs.push(j > i ? `${pages[i]}-${pages[j]}` : String(pages[i]));
    i = j + 1;
  }
  const noun = pages.length === 1 ? 'Page' : 'Pages';
  const listed = `${subject ? noun : noun.toLowerCase()} ${runs.join(', ')}`;
  return subject
    ? `${listed} ${pages.length === 1 ? 'has' : 'have'}`
    : pages.length === pageCount && pageCount > 1
      ? `all ${pageCount} pages`
      : `${listed} of ${pageCount}`;
}

/** How to ask for what was not shown, or nothing when everything was. */
function morePages(
  chosen: number[],
  shownText: number[],
  shownImages: number[],
  pageCount: number,
  images: boolean,
): string | undefined {
  const missingText = chosen.filter((page) => !shownText.includes(page));
  const missingImages = images ? chosen.filter((page) => !shownImages.includes(page)) : [];
  const unchosen = pageCount - chosen.length;
  if (missingText.length === 0 && missingImages.length === 0 && unchosen === 0) return undefined;
  const next = Math.max(shownText.at(-1) ?? 0, shownImages.at(-1) ?? 0) + 1;
  const example = next <= pageCount ? `"${next}-${Math.min(pageCount, next + (images ? 2 : 9))}"` : '"1-3"';
  return `The PDF has ${pageCount} pages. Call view_file again with pages (for example ${example}) to see others${images ? `; at most ${PDF_VIEW_LIMITS.maxImages} page images per call` : ''}.`;
}
