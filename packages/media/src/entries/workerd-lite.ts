// Cloudflare Workers entry without PDFium (`@glimpse/media/workerd-lite`), for the free plan's 3 MB
// compressed upload: the full Workers bundle is about 3.9 MB gzip, PDFium alone 1.98 MB of it. Everything
// else is the Workers entry's (entries/workerd.ts): images (PNG, JPEG, WebP, GIF, BMP, ICO, TIFF, AVIF;
// HEIC with @glimpse/heif) and SVGs are read, fitted and sent as there, and a PDF still goes to a route that
// takes PDFs (pdf-lib checks it, in JS). Only reading a PDF's text or drawing its pages needs PDFium: those
// two calls refuse with a typed error that names the full entry. The build gives this bundle a module table
// without pdfium.wasm (scripts/build-runtimes.mjs, RUNTIMES).
import { MediaError } from '../errors.js';
import type { PdfText, PdfTextOptions, RenderPdfPageOptions } from '../pdf-pages.js';
import type { ProcessResult, SendableImageType } from '../types.js';

export * from './workerd.js';

function withoutPdfium(call: string): MediaError {
  return new MediaError(
    'E_UNSUPPORTED',
    `${call} needs PDFium, which @glimpse/media/workerd-lite leaves out to fit the Workers free plan's 3 MB. Import @glimpse/media (the full Workers entry, about 3.9 MB gzip: the paid plan) where PDFs must be read or drawn; this entry still sends PDFs to routes that take them.`,
    { entry: 'workerd-lite', call },
  );
}

/** Refused here: reading a PDF's text needs PDFium (import `@glimpse/media` for it). */
export async function pdfText(_bytes: Uint8Array, _options?: PdfTextOptions): Promise<PdfText> {
  throw withoutPdfium('pdfText');
}

/** Refused here: drawing a PDF page needs PDFium (import `@glimpse/media` for it). */
export async function renderPdfPage(
  _bytes: Uint8Array,
  _page: number,
  _options?: RenderPdfPageOptions,
): Promise<ProcessResult & { mediaType: SendableImageType }> {
  throw withoutPdfium('renderPdfPage');
}
