/**
 * The core's WASM modules by name, and where each one's .wasm lives as a package specifier (for entries that
 * resolve files: Node; scripts/build-runtimes.mjs makes the other entries' tables from it).
 */
export const WASM_FILES = {
  png: '@glimpse/media/wasm/png.wasm',
  resize: '@glimpse/media/wasm/resize.wasm',
  jpeg: '@glimpse/media/wasm/jpeg.wasm',
  webp_decoder: '@glimpse/media/wasm/webp-decoder.wasm',
  webp_encoder: '@glimpse/media/wasm/webp-encoder.wasm',
  tiff: '@glimpse/media/wasm/tiff.wasm',
  avif: '@glimpse/media/wasm/avif.wasm',
  resvg: '@resvg/resvg-wasm/index_bg.wasm',
  pdfium: '@hyzyla/pdfium/pdfium.wasm',
} as const satisfies Readonly<Record<string, string>>;

/** A module of the core's own, as the WASM seam names it. */
export type WasmModuleName = keyof typeof WASM_FILES;

/**
 * Codecs a runtime bundle leaves out of its module table (scripts/build-runtimes.mjs): `workerd-lite`, the
 * Workers entry within the free plan's 3 MB, has no PDFium (entries/workerd-lite.ts).
 */
export const OMITTED_CODECS: Readonly<Record<string, readonly WasmModuleName[]>> = { 'workerd-lite': ['pdfium'] };
