// Cloudflare Workers entry. workerd forbids compiling WASM from bytes, so every codec arrives as a
// `.wasm` module import that the platform compiles at upload; the loader only hands them over.
// A Worker has 128 MB of memory. The pipeline decodes in bands, so the 100 MP bomb guard is the only
// default input limit here too (measured in workerd, docs/runtimes.md "Workers memory"), but one: a
// lossless WebP's decoder holds the whole image and its re-encode is lossless, which did not fit.
import { WASM_MODULES } from 'glimpse:wasm-modules';
import { MediaError } from '../errors.js';
import { pdfText as pdfTextAnywhere, type PdfText, type PdfTextOptions } from '../pdf/pdf-text.js';
import { renderPdfPage as renderPdfPageAnywhere, type RenderPdfPageOptions } from '../pdf/render-pdf-page.js';
import { probe } from '../probe.js';
import { process as processAnywhere } from '../process.js';
import type { ProcessOptions, ProcessResult, SendableImageType } from '../types.js';
import { setWasmLoader } from '../wasm.js';

setWasmLoader(async (name) => {
  const module = WASM_MODULES[name];
  if (module === undefined) throw new Error(`the Workers bundle was built without ${name}.wasm`);
  return module;
});

/**
 * Largest lossless WebP, in pixels, that the Workers entry decodes by default. A 4000×3000 one grew the
 * isolate by 232 MB (libwebp's lossless decoder holds 4 bytes per stored pixel, and the lossless WebP
 * encoder's working memory is large); everything else measured fits: a 50 MP PNG screenshot +67 MB, a
 * 24 MP JPEG +47 MB, Retina screenshots +32–40 MB. This cap is the old default, not a measured bound.
 */
export const WORKERS_MAX_LOSSLESS_WEBP_PIXELS = 4_200_000;

/** `process`, refusing by default a lossless WebP too large for a Worker; an explicit `maxInputPixels` overrides it. */
export async function process(bytes: Uint8Array, options: ProcessOptions = {}): Promise<ProcessResult> {
  if (options.maxInputPixels === undefined && bytes instanceof Uint8Array) {
    const info = await probe(bytes).catch(() => undefined); // process reports a bad header itself
    if (
      info?.mediaType === 'image/webp' &&
      info.lossless &&
      info.width * info.height > WORKERS_MAX_LOSSLESS_WEBP_PIXELS
    ) {
      throw new MediaError(
        'E_TOO_MANY_PIXELS',
        `The image declares ${info.width}×${info.height} pixels. A Cloudflare Worker has 128 MB of memory, so the Workers entry decodes lossless WebP up to ${WORKERS_MAX_LOSSLESS_WEBP_PIXELS / 1e6} MP by default (other formats up to the 100 MP default): downscale the image before it reaches the Worker, or pass maxInputPixels to raise the cap at the risk of running out of memory.`,
        { width: info.width, height: info.height, maxInputPixels: WORKERS_MAX_LOSSLESS_WEBP_PIXELS },
      );
    }
  }
  return processAnywhere(bytes, options);
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
