import { MediaError } from '../errors.js';

/**
 * The WASM seam. The core never fetches or compiles WASM: each runtime entry (Node, Deno, browser,
 * Workers) registers a loader that returns a compiled `WebAssembly.Module` for a codec name.
 * Codecs ask for their module lazily, on first need, so a JPEG job never loads the WebP encoder.
 */
export type WasmModuleName =
  | 'png'
  | 'resize'
  | 'jpeg'
  | 'webp_decoder'
  | 'webp_encoder'
  | 'tiff'
  | 'avif'
  | 'resvg'
  | 'pdfium';

export type WasmLoader = (name: WasmModuleName) => Promise<WebAssembly.Module>;

let loader: WasmLoader | undefined;
const compiled = new Map<WasmModuleName, Promise<WebAssembly.Module>>();

/** Called once by a runtime entry. Replacing the loader forgets modules compiled by the previous one. */
export function setWasmLoader(next: WasmLoader): void {
  loader = next;
  compiled.clear();
}

/** The compiled module for `name`, obtained once per loader. */
export function wasmModule(name: WasmModuleName): Promise<WebAssembly.Module> {
  let pending = compiled.get(name);
  if (!pending) {
    if (!loader) {
      throw new MediaError(
        'E_WASM_UNAVAILABLE',
        `No WASM loader is registered, so the ${name} codec cannot start. Import @glimpse/media through a runtime entry (node, deno, browser, workerd) or call setWasmLoader().`,
        { module: name },
      );
    }
    pending = loader(name).catch((cause: unknown) => {
      compiled.delete(name);
      throw new MediaError(
        'E_WASM_UNAVAILABLE',
        `The ${name} WASM module could not be loaded: ${String(cause)}`,
        { module: name },
        { cause },
      );
    });
    compiled.set(name, pending);
  }
  return pending;
}

// A minimal module using one v128 instruction: validates only where WASM SIMD is supported.
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11,
]);

/** Whether this runtime runs WASM SIMD (decides which WebP encoder build to use). */
export function wasmSimdSupported(): boolean {
  return WebAssembly.validate(SIMD_PROBE);
}
