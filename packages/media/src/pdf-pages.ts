// Reading a PDF's pages with PDFium, for routes without PDF input and for a sharp look at one page: their
// text (`pdfText`), or one drawn as an image fitted like any other (`renderPdfPage`). PDFium loads on first
// use, in an instance per document (reused from a clean call before: formats/pdf/pdfium.ts).
import { detect } from './detect.js';
import { MediaError } from './errors.js';
import { withPdfDocument, corrupt, pageIndex } from './formats/pdf/document.js';
import { drawPage } from './formats/pdf/draw-page.js';
import { PDFIUM_MAX_MEMORY } from './formats/pdf/pdfium.js';
import { findPdfHeader, hasEofMarker } from './formats/pdf/probe.js';
import { readPageText } from './formats/pdf/text.js';
import { fitWithinLimits } from './pipeline/fit.js';
import { pdfiumJobMemory } from './pipeline/job-memory.js';
import { governed } from './runtime/memory-governor.js';
import { chooseEncoding } from './pipeline/output-encoding.js';
import { reencodedResult } from './pipeline/result.js';
import { type Limits, positive, resolveLimits } from './presets/limits.js';
import { afterAdmission, type Deadline, deadlineAfter } from './runtime/deadline.js';
import type { PdfInfo, ProcessOptions, ProcessResult, Region, SendableImageType } from './types.js';
import { assertRegionShape } from './pipeline/region.js';

export interface PdfTextOptions {
  /** Pages to read, numbered from 1, in the order given. Default: every page. */
  pages?: readonly number[];
  /** Most pages one call reads; more is `E_TOO_LARGE`. Default 1000. */
  maxPages?: number;
  /** Time budget for the whole call; checked between pages. Default 30 s. */
  timeoutMs?: number;
  /** Most WASM memory PDFium may use for this call, in bytes; more is `E_TOO_LARGE`. Default 512 MiB (Workers entry: 80 MiB). */
  maxMemory?: number;
}

export interface PdfPageText {
  /** Page number, from 1. */
  page: number;
  /** The page's text in reading order as PDFium sees it; lines end with `\n`. Empty for a page without a text layer. */
  text: string;
}

export interface PdfText {
  /** Pages in the whole document. */
  pageCount: number;
  pages: PdfPageText[];
}

export interface RenderPdfPageOptions extends ProcessOptions {
  /** Time budget for the whole call; checked while PDFium draws. Default 30 s. */
  timeoutMs?: number;
  /** Most WASM memory PDFium may use for this call, in bytes; more is `E_TOO_LARGE`. Default 512 MiB (Workers entry: 80 MiB). */
  maxMemory?: number;
}

export const PDF_DEFAULTS = { maxPages: 1000, timeoutMs: 30_000, maxMemory: PDFIUM_MAX_MEMORY } as const;

/**
 * The text layer of the chosen pages. A scanned page has none: its `text` is empty, and only its image
 * (see `renderPdfPage`) shows what it says. Password-protected → E_PDF_ENCRYPTED, damaged → E_CORRUPT.
 */
export async function pdfText(bytes: Uint8Array, options: PdfTextOptions = {}): Promise<PdfText> {
  const deadline = deadlineAfter(options.timeoutMs ?? PDF_DEFAULTS.timeoutMs);
  const maxPages = options.maxPages ?? PDF_DEFAULTS.maxPages;
  const maxMemory = positive('maxMemory', options.maxMemory) ?? PDF_DEFAULTS.maxMemory;
  assertPdfBytes(bytes, 'pdfText');
  // Admitted like process's jobs, with PDFium at its cap (what it takes depends on the pages).
  const memory = { estimateBytes: pdfiumJobMemory(bytes, maxMemory), inputBytes: bytes.byteLength };
  return governed(
    memory,
    afterAdmission(deadline, () => readText(bytes, maxMemory, options, maxPages, deadline)),
  );
}

function readText(
  bytes: Uint8Array,
  maxMemory: number,
  options: PdfTextOptions,
  maxPages: number,
  deadline: Deadline,
): Promise<PdfText> {
  return withPdfDocument(bytes, maxMemory, (document) => {
    const wanted = options.pages ?? Array.from({ length: document.pageCount }, (_, i) => i + 1);
    if (wanted.length > maxPages) {
      throw new MediaError(
        'E_TOO_LARGE',
        `Reading ${wanted.length} pages at once is over the limit of ${maxPages}. Ask for fewer pages (pages: [1, 2, …]), or raise maxPages.`,
        { pages: wanted.length, maxPages },
      );
    }
    const indices = wanted.map((page) => pageIndex(page, document.pageCount));
    const pages = indices.map((index) => ({ page: index + 1, text: readPageText(document, index, deadline) }));
    return { pageCount: document.pageCount, pages };
  });
}

/**
 * Renders page `page` (from 1) so its longer side is `maxEdge` of the preset (upright: /Rotate applied),
 * on white, and fits it like `process` does: PNG for text and drawings, JPEG for pages that are mostly a
 * photo or scan, smaller or lossier until it is within `maxBytes`. A page's size in points only sets its
 * shape: a 200-inch poster renders at the same pixel count as a letter page. With `region` (in the page's
 * points, upright, as `original` measures it), only that part is drawn, at the resolution that fills the
 * working size (up to 3,600 dpi): a closer look at small print, not a crop of the page image.
 */
export async function renderPdfPage(
  bytes: Uint8Array,
  page: number,
  options: RenderPdfPageOptions = {},
): Promise<ProcessResult & { mediaType: SendableImageType }> {
  const limits = resolveLimits(options);
  const deadline = deadlineAfter(options.timeoutMs ?? PDF_DEFAULTS.timeoutMs);
  const maxMemory = positive('maxMemory', options.maxMemory) ?? PDF_DEFAULTS.maxMemory;
  assertPdfBytes(bytes, 'renderPdfPage');
  const region = assertRegionShape(options.region);
  // Admitted like process's jobs: PDFium at its cap, the page's raster at the working size, an encoder.
  const outputPixels = limits.maxEdge * limits.maxEdge;
  const memory = { estimateBytes: pdfiumJobMemory(bytes, maxMemory, outputPixels), inputBytes: bytes.byteLength };
  return governed(
    memory,
    afterAdmission(deadline, () => drawAndFit(bytes, page, limits, maxMemory, deadline, region)),
  );
}

async function drawAndFit(
  bytes: Uint8Array,
  page: number,
  limits: Limits,
  maxMemory: number,
  deadline: Deadline,
  region: Region | undefined,
): Promise<ProcessResult & { mediaType: SendableImageType }> {
  const drawn = await withPdfDocument(bytes, maxMemory, (document) =>
    drawPage(document, pageIndex(page, document.pageCount), limits, deadline, region),
  );
  const preferred = chooseEncoding({ lossless: !drawn.photo, hasAlpha: false }, limits.accepts);
  deadline.check(`Rendering page ${page}`);
  const fitted = await fitWithinLimits({
    raster: drawn.raster,
    hasAlpha: false,
    preferred,
    maxBytes: limits.maxBytes,
    accepts: limits.accepts,
  });
  // What is read of the file is the page: its size in points, the document's page count.
  const source: PdfInfo = {
    mediaType: 'application/pdf',
    bytes: bytes.byteLength,
    width: Math.round(drawn.points.width),
    height: Math.round(drawn.points.height),
    orientation: 1,
    frames: 1,
    pages: drawn.pageCount,
  };
  const result = reencodedResult(fitted, source, region ? ['rasterized', 'cropped'] : ['rasterized'], false, []);
  return { ...result, mediaType: fitted.mediaType, ...(region && { region }) };
}

/** Checks done before PDFium starts: bytes, a PDF header, and an end (a cut file has lost its %%EOF). */
function assertPdfBytes(bytes: Uint8Array, caller: string): void {
  if (!(bytes instanceof Uint8Array)) {
    throw new MediaError(
      'E_INVALID_INPUT',
      `${caller}() takes the PDF's bytes as a Uint8Array (a Node Buffer is one). Wrap an ArrayBuffer with new Uint8Array(buffer).`,
    );
  }
  if (findPdfHeader(bytes) < 0) {
    const type = detect(bytes);
    throw new MediaError(
      'E_UNSUPPORTED',
      `${caller}() reads PDFs; these bytes are ${type === undefined ? 'not a PDF (no %PDF- header)' : `${type}, not a PDF: use process() for images`}.`,
      { mediaType: type },
    );
  }
  if (!hasEofMarker(bytes)) throw corrupt('it is truncated: the %%EOF marker is missing from its end');
}
