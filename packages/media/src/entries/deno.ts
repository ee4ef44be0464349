// Deno entry: reads each codec's .wasm (the package's wasm/, or dist/wasm/ for a dependency's; the URLs are
// relative to this bundle) and compiles it.
import { WASM_URLS } from 'glimpse:wasm-urls';
import { setWasmRuntime } from '../runtime/wasm.js';

// The one Deno API we use; declared here so the package does not need Deno's type library.
declare const Deno: { readFile(path: URL): Promise<Uint8Array<ArrayBuffer>> };

setWasmRuntime({
  locate(name) {
    const path = WASM_URLS[name];
    if (path === undefined) throw new Error(`the Deno bundle was built without ${name}.wasm`);
    return new URL(path, import.meta.url);
  },
  compile: async (url) => WebAssembly.compile(await Deno.readFile(url)),
});

export * from '../index.js';
