// Browser entry: the package's wasm/heif.wasm, at a URL relative to this bundle, is fetched and compiled on the first HEIC.
import { WASM_URLS } from 'glimpse:wasm-urls';
import { registerHeif } from '../register-heif.js';

registerHeif(async () => {
  const path = WASM_URLS['heif'];
  if (path === undefined) throw new Error('the browser bundle was built without heif.wasm');
  const url = new URL(path, import.meta.url);
  const response = await fetch(url);
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
  if (response.headers.get('content-type')?.split(';')[0]?.trim() === 'application/wasm')
    return WebAssembly.compileStreaming(response);
  return WebAssembly.compile(await response.arrayBuffer());
});

export * from '../index.js';
