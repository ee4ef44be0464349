// Registers the HEIC/HEIF decoder with @glimpse/media. Each runtime entry says how its WASM module is
// obtained; the module is compiled (or fetched) once, on the first HEIC, and kept.
import { MediaError, registerDecoder } from '@glimpse/media';
import { decodeHeif } from './decode-heif.js';

export const HEIF_DECODER_NAME = '@glimpse/heif (libheif 1.15.1 + libde265 1.0.11, LGPL-3.0)';

export interface HeifOptions {
  /** The most WASM memory (bytes) one decode may reach; a larger image is E_TOO_LARGE before it is decoded. */
  maxMemory?: number;
}

/** Makes `process` decode HEIC and HEIF with the module `load` returns. */
export function registerHeif(load: () => Promise<WebAssembly.Module>, { maxMemory }: HeifOptions = {}): void {
  let module: Promise<WebAssembly.Module> | undefined;
  const compiled = () =>
    (module ??= load().catch((cause: unknown) => {
      module = undefined;
      throw new MediaError(
        'E_WASM_UNAVAILABLE',
        `The heif WASM module could not be loaded: ${String(cause)}`,
        { module: 'heif' },
        { cause },
      );
    }));
  registerDecoder(['image/heic', 'image/heif'], {
    name: HEIF_DECODER_NAME,
    decode: async (request) => decodeHeif(await compiled(), request, maxMemory),
  });
}
