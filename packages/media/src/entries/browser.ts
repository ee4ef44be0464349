// Browser entry: fetches each codec's .wasm (the package's wasm/, or dist/wasm/ for a dependency's; the URLs are
// relative to this bundle) and compiles it while it streams.
import { WASM_URLS } from 'glimpse:wasm-urls';
import { setWasmRuntime } from '../runtime/wasm.js';

setWasmRuntime({
  locate(name) {
    const path = WASM_URLS[name];
    if (path === undefined) throw new Error(`the browser bundle was built without ${name}.wasm`);
    return new URL(path, import.meta.url);
  },
  async compile(url) {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
    // compileStreaming needs `Content-Type: application/wasm`; some static hosts send another type.
    if (response.headers.get('content-type')?.split(';')[0]?.trim() === 'application/wasm') {
      return WebAssembly.compileStreaming(response);
    }
    return WebAssembly.compile(await response.arrayBuffer());
  },
});

export * from '../index.js';
