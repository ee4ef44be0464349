import type { ProcessOptions } from '@glimpse/media';
import type { DocumentPart, Part } from './parts.js';

/**
 * A PDF for a route that takes no documents (pi, Ollama): its text and its pages as images, so the model
 * still reads it. Until the media core renders PDFs (`pdfText`, `renderPdfPage`), this says plainly that
 * the document is not shown, so no text ever claims an attachment the model never got.
 */
export async function pdfAsTextAndPages(document: DocumentPart, _options: ProcessOptions): Promise<Part[]> {
  // TODO(pdf): read `pdfText(bytes)` and `renderPdfPage(bytes, n, options)` from @glimpse/media once they land.
  const name = document.filename ?? 'a PDF';
  const pages = document.pages === undefined ? '' : ` (${document.pages} page${document.pages === 1 ? '' : 's'})`;
  return [{ type: 'text', text: `[${name}${pages} is not shown: this route takes no PDF documents, and this glimpse build cannot turn PDF pages into text or images yet. Ask for the text or for page images instead.]` }];
}
