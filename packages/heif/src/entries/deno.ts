// Deno entry: the package's wasm/heif.wasm, at a URL relative to this bundle, is read and compiled on the first HEIC.
import { WASM_URLS } from 'glimpse:wasm-urls';
import { registerHeif } from '../register-heif.js';

declare const Deno: { readFile(path: URL): Promise<Uint8Array<ArrayBuffer>> };

registerHeif(async () => {
  const path = WASM_URLS['heif'];
  if (path === undefined) throw new Error('the Deno bundle was built without heif.wasm');
  return WebAssembly.compile(await Deno.readFile(new URL(path, import.meta.url)));
});

export * from '../index.js';
