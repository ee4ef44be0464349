// Cloudflare Workers entry. workerd forbids compiling WASM from bytes, so every codec arrives as a
// `.wasm` module import that the platform compiles at upload; the loader only hands them over.
// A Worker has 128 MB of memory, so this entry also lowers the default input-pixel caps.
import { WASM_MODULES } from 'glimpse:wasm-modules';
import { detect } from '../detect.js';
import { MediaError, isMediaError } from '../errors.js';
import { pdfText as pdfTextAnywhere, type PdfText, type PdfTextOptions } from '../pdf/pdf-text.js';
import { renderPdfPage as renderPdfPageAnywhere, type RenderPdfPageOptions } from '../pdf/render-pdf-page.js';
import { process as processAnywhere } from '../process.js';
import type { ProcessOptions, ProcessResult, SendableImageType } from '../types.js';
import { setWasmLoader } from '../wasm.js';

setWasmLoader(async (name) => {
  const module = WASM_MODULES[name];
  if (module === undefined) throw new Error(`the Workers bundle was built without ${name}.wasm`);
  return module;
});

/**
 * Largest inputs, in pixels, that the Workers entry decodes by default. Measured in workerd with
 * `npm run test:workers` (fresh isolate, WASM memories created per request; README "Runtimes"):
 * - JPEG decodes at a DCT scale near the target size: 12 MP made 34 MB of WASM memory, 24 MP 69 MB.
 * - PNG and WebP decode at full size, then resize: 4 MP PNG 68 MB, 6 MP PNG 134 MB, 12 MP WebP 169 MB.
 * The decoded pixels are also copied into JS (4 bytes each, more than once), all within 128 MB.
 * 4.2 MP still takes a 2560×1600 screenshot.
 */
export const WORKERS_MAX_INPUT_PIXELS = { jpeg: 24_000_000, other: 4_200_000 } as const;

/** `process` with the Workers pixel caps as the default; an explicit `maxInputPixels` overrides them. */
export async function process(bytes: Uint8Array, options: ProcessOptions = {}): Promise<ProcessResult> {
  const maxInputPixels =
    options.maxInputPixels ??
    (detect(bytes) === 'image/jpeg' ? WORKERS_MAX_INPUT_PIXELS.jpeg : WORKERS_MAX_INPUT_PIXELS.other);
  try {
    return await processAnywhere(bytes, { ...options, maxInputPixels });
  } catch (error) {
    if (options.maxInputPixels === undefined && isMediaError(error) && error.code === 'E_TOO_MANY_PIXELS') {
      const { width, height } = error.details;
      const declared =
        typeof width === 'number' && typeof height === 'number' ? `The image declares ${width}×${height} pixels. ` : '';
      throw new MediaError(
        'E_TOO_MANY_PIXELS',
        `${declared}A Cloudflare Worker has 128 MB of memory, so the Workers entry decodes at most ${(maxInputPixels / 1e6).toFixed(1)} MP of this format by default (JPEG ${WORKERS_MAX_INPUT_PIXELS.jpeg / 1e6} MP, others ${WORKERS_MAX_INPUT_PIXELS.other / 1e6} MP): downscale the image before it reaches the Worker, or pass maxInputPixels to raise the cap at the risk of running out of memory.`,
        { ...error.details, maxInputPixels },
        { cause: error },
      );
    }
    throw error;
  }
}

/**
 * Most WASM memory PDFium may use per call in a Worker (the `maxMemory` option's default here). Measured
 * with `npm run test:workers`: a text page at 2000 px takes 17.8 MB, a 300 or 600 dpi letter scan 62–65 MB
 * (PDFium decodes a JPEG at a reduced scale), plus the output's encoder (10 MB for the scan's JPEG).
 * An embedded image beyond that is E_TOO_LARGE instead of an isolate over its 128 MB.
 */
export const WORKERS_PDFIUM_MAX_MEMORY = 80 * 1024 * 1024;

/** `renderPdfPage` with the Workers memory cap as the default. */
export function renderPdfPage(
  bytes: Uint8Array,
  page: number,
  options: RenderPdfPageOptions = {},
): Promise<ProcessResult & { mediaType: SendableImageType }> {
  return renderPdfPageAnywhere(bytes, page, { ...options, maxMemory: options.maxMemory ?? WORKERS_PDFIUM_MAX_MEMORY });
}

/** `pdfText` with the Workers memory cap as the default. */
export function pdfText(bytes: Uint8Array, options: PdfTextOptions = {}): Promise<PdfText> {
  return pdfTextAnywhere(bytes, { ...options, maxMemory: options.maxMemory ?? WORKERS_PDFIUM_MAX_MEMORY });
}

export * from '../index.js';
