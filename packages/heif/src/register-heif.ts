// Registers the HEIC/HEIF decoder with @glimpse/media, and its WASM module with the core's loader: each
// runtime entry only says where heif.wasm is; the core's runtime entry reads or fetches and compiles it,
// once, on the first HEIC.
import { registerDecoder, registerWasmModule, type WasmSource, wasmModule } from '@glimpse/media';
import { decodeHeif } from './decode-heif.js';

export const HEIF_DECODER_NAME = '@glimpse/heif (libheif 1.15.1 + libde265 1.0.11, LGPL-3.0)';

export interface HeifOptions {
  /** The most WASM memory (bytes) one decode may reach; a larger image is E_TOO_LARGE before it is decoded. */
  maxMemory?: number;
}

/**
 * Makes `process` decode HEIC and HEIF with heif.wasm from `source`: its URL, the compiled module, or a
 * function that obtains it (a self-hosted copy, `() => WebAssembly.compileStreaming(fetch(url))`).
 */
export function registerHeif(source: WasmSource, { maxMemory }: HeifOptions = {}): void {
  registerWasmModule('heif', source);
  registerDecoder(['image/heic', 'image/heif'], {
    name: HEIF_DECODER_NAME,
    decode: async (request) => decodeHeif(await wasmModule('heif'), request, maxMemory),
  });
}
