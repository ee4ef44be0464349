// Cloudflare Workers entry. workerd forbids compiling WASM from bytes, so every codec arrives as a
// `.wasm` module import that the platform compiles at upload; the loader only hands them over.
// A Worker has 128 MB of memory. The pipeline decodes in bands, so the 100 MP bomb guard is the only
// default input limit here too (measured in workerd, docs/runtimes.md "Workers memory").
import { WASM_MODULES } from 'glimpse:wasm-modules';
import { setAvifMemoryLimit } from '../formats/avif/kernel.js';
import {
  pdfText as pdfTextAnywhere,
  type PdfText,
  type PdfTextOptions,
  renderPdfPage as renderPdfPageAnywhere,
  type RenderPdfPageOptions,
} from '../pdf-pages.js';
import type { ProcessResult, SendableImageType } from '../types.js';
import { configureMemoryGovernor } from '../runtime/memory-governor.js';
import { setWasmRuntime } from '../runtime/wasm.js';

setWasmRuntime({
  locate(name) {
    const module = WASM_MODULES[name];
    if (module === undefined) throw new Error(`the Workers bundle was built without ${name}.wasm`);
    return module;
  },
  // workerd refuses to compile WASM from bytes: a package's module comes as a module import too.
  compile: async (url) => {
    throw new Error(`Workers compile WASM only at upload; ${url.href} must be imported as a module`);
  },
});

/**
 * Most WASM memory the AVIF decoder may use per call in a Worker. dav1d decodes an AV1 frame whole: a
 * 12 MP (4032×3024) 10-bit 4:4:4 frame is 72.6 MiB, and its decoder instance peaks at 82.3 MiB; the rest of
 * that job (the request, the output raster, the resizer and the JPEG encoder, compiled code) adds 34 MB
 * (docs/runtimes.md "Workers memory"). An AVIF whose frame would not fit (24 MP 4:4:4, 48 MP) is
 * E_TOO_LARGE before it is decoded instead of an isolate over its 128 MB.
 */
export const WORKERS_AVIF_MAX_MEMORY = 86 * 1024 * 1024;
setAvifMemoryLimit(WORKERS_AVIF_MAX_MEMORY);

/**
 * The memory governor's default budget in a Worker: the estimates of the jobs one isolate runs at once
 * (pipeline/job-memory.ts) add up to at most this. A Worker has 128 MB, which counts the runtime, the
 * bundle's compiled code and the JS garbage V8 has not collected yet (up to about 64 MB of ArrayBuffers
 * before it collects: measured in workerd), so a job of a 12 MP photo (52 MiB by its estimate) runs
 * alone and three small ones run together. Jobs past it wait, and past 32 waiting or 30 s they are E_BUSY
 * (docs/runtimes.md "Many requests in one isolate"). A `processRequest` job holds its admission while its
 * body arrives, so a body that stops arriving ends after `bodyIdleMs` (DEFAULT_BODY_IDLE_MS, 10 s, well
 * inside the 30 s the jobs behind it wait), and one that trickles after `bodyTimeoutMs` (20 s), with
 * E_TIMEOUT, giving it back. `configureMemoryGovernor`
 * changes the fields it is given (or, with undefined, turns governing off).
 */
export const WORKERS_MAX_CONCURRENT_MEMORY = 80 * 1024 * 1024;

/**
 * Most input the `process(bytes)` jobs waiting in a Worker may hold (their bodies, read before `process` is
 * called): 16 MiB, half a dozen photos. V8 leaves up to about 64 MB of dead ArrayBuffers before it
 * collects, and 20 mixed requests at once grew the isolate by 126 MB with 40 MiB allowed here, 95 MB one
 * by one. `processRequest` jobs wait with their bodies unread (+74 MB for the same 20).
 */
export const WORKERS_MAX_QUEUED_BYTES = 16 * 1024 * 1024;
configureMemoryGovernor({
  maxConcurrentMemory: WORKERS_MAX_CONCURRENT_MEMORY,
  maxQueuedBytes: WORKERS_MAX_QUEUED_BYTES,
});

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
