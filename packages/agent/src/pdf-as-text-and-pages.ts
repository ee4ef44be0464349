import { isMediaError, pdfText, renderPdfPage, type ProcessOptions } from '@glimpse/media';
import { base64ToBytes, bytesToBase64 } from './base64.js';
import { failureNote } from './notes.js';
import type { DocumentPart, ImagePart, Part } from './parts.js';

/** Pages rendered as images by default: enough to show a document's look without a page image per page of a long one. */
export const DEFAULT_PAGE_IMAGES = 4;

export interface PdfAsTextAndPagesOptions extends ProcessOptions {
  /** How many pages (from the first) also go as images. Pages without a text layer (scans) count first. Default 4. */
  pageImages?: number;
}

/** Text beyond this is cut with a note: a 1,000-page PDF must not become a megabyte of tool text. */
const MAX_TEXT_CHARS = 100_000;

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** "1-3", "1, 4, 6-7": pages in order, runs joined. */
function describePages(pages: readonly number[]): string {
  const runs: string[] = [];
  for (let i = 0; i < pages.length; i++) {
    let j = i;
    while (j + 1 < pages.length && pages[j + 1] === (pages[j] ?? 0) + 1) j++;
    runs.push(j === i ? String(pages[i]) : `${pages[i]}-${pages[j]}`);
    i = j;
  }
  return runs.join(', ');
}

/**
 * A PDF for a route that takes no documents (pi, Ollama): a line saying so, the text layer of every page, and
 * images of the first pages — pages without text (scans) first, since only their image shows what they say.
 * Each image is fitted to `options` like any other. Never throws: an encrypted or damaged PDF becomes a note.
 */
export async function pdfAsTextAndPages(document: DocumentPart, options: PdfAsTextAndPagesOptions = {}): Promise<Part[]> {
  const name = document.filename ?? 'the PDF';
  const bytes = base64ToBytes(document.data);
  if (bytes === undefined) return [{ type: 'text', text: failureNote(name, 'E_CORRUPT', 'Its data is not valid base64.') }];
  try {
    const { pageCount, pages } = await pdfText(bytes);
    const budget = options.pageImages ?? DEFAULT_PAGE_IMAGES;
    const blank = pages.filter((page) => page.text.trim() === '').map((page) => page.page);
    const rendered = [...new Set([...blank, ...pages.map((page) => page.page)])].slice(0, budget).sort((a, b) => a - b);
    const images: ImagePart[] = [];
    for (const page of rendered) {
      const result = await renderPdfPage(bytes, page, options);
      const { mediaType } = result;
      if (mediaType === 'application/pdf') continue; // never: a page renders to PNG or JPEG
      images.push({ type: 'image', mediaType, data: bytesToBase64(result.data), width: result.width, height: result.height });
    }
    const shown = rendered.length === 0 ? 'no page images' : `${rendered.length === pageCount ? 'every page' : `page${rendered.length === 1 ? '' : 's'} ${describePages(rendered)}`} as ${rendered.length === 1 ? 'an image' : 'images'}`;
    const header = `[${name} (${plural(pageCount, 'page')}) is given as its text and ${shown}: this route takes no PDF documents]`;
    const text = pages.map((page) => `--- page ${page.page} ---\n${page.text.trim() !== '' ? page.text.trimEnd() : rendered.includes(page.page) ? '(no text layer: see the page image)' : '(no text layer)'}`).join('\n');
    const cut = text.length > MAX_TEXT_CHARS ? `${text.slice(0, MAX_TEXT_CHARS)}\n[the text is cut at ${MAX_TEXT_CHARS.toLocaleString('en-US')} characters]` : text;
    return [{ type: 'text', text: `${header}\n${cut}` }, ...images];
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return [{ type: 'text', text: failureNote(name, isMediaError(error) ? error.code : undefined, message) }];
  }
}
