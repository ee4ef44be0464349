import { isMediaError, type ProcessOptions } from '@glimpse/media';
import { base64ToBytes } from '../base64.js';
import { modelErrorText } from '../results/model-error-text.js';
import { failureNote } from '../results/notes.js';
import type { DocumentPart, Part } from '../types.js';
import { viewPdfPages } from './view-pdf-pages.js';

/**
 * A PDF for a route that takes no documents (pi, the AI SDK on Ollama): a line saying so, then what `view_file`
 * gives a model without PDF input — the pages' text within a budget, images of the first pages fitted to the
 * preset, scans named, and how to ask for more. Never throws: an encrypted or damaged PDF becomes a note.
 */
export async function pdfAsTextAndPages(document: DocumentPart, options: ProcessOptions = {}): Promise<Part[]> {
  const name = document.filename ?? 'the PDF';
  const bytes = base64ToBytes(document.data);
  if (bytes === undefined)
    return [{ type: 'text', text: failureNote(name, 'E_CORRUPT', 'Its data is not valid base64.') }];
  try {
    const parts = await viewPdfPages(bytes, {
      name,
      text: true,
      images: true,
      preset: options.preset ?? options.provider ?? 'portable',
    });
    return [
      { type: 'text', text: `[${name} is given as its text and page images: this route takes no PDF documents]` },
      ...parts,
    ];
  } catch (error) {
    const message = modelErrorText(error);
    return [{ type: 'text', text: failureNote(name, isMediaError(error) ? error.code : undefined, message) }];
  }
}
