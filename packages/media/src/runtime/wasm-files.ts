import type { WasmModuleName } from './wasm.js';

/** Where each codec's .wasm lives, as a package specifier: for entries that resolve files (Node, Deno). */
export const WASM_FILES: Readonly<Record<WasmModuleName, string>> = {
  png: '@glimpse/media/wasm/png.wasm',
  resize: '@glimpse/media/wasm/resize.wasm',
  jpeg: '@glimpse/media/wasm/jpeg.wasm',
  webp_decoder: '@glimpse/media/wasm/webp-decoder.wasm',
  webp_encoder: '@glimpse/media/wasm/webp-encoder.wasm',
  tiff: '@glimpse/media/wasm/tiff.wasm',
  avif: '@glimpse/media/wasm/avif.wasm',
  resvg: '@resvg/resvg-wasm/index_bg.wasm',
  pdfium: '@hyzyla/pdfium/pdfium.wasm',
};
