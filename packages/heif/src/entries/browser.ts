// Browser entry: the build emits heif.wasm beside this bundle; it is fetched and compiled on the first HEIC.
import heifWasm from '../../wasm/heif.wasm';
import { registerHeif } from '../register-heif.js';

const heifUrl = (): URL => {
  if (typeof heifWasm !== 'string') throw new Error('the bundle was built without the file loader for heif.wasm');
  return new URL(heifWasm, import.meta.url);
};

registerHeif(async () => {
  const url = heifUrl();
  const response = await fetch(url);
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
  if (response.headers.get('content-type')?.split(';')[0]?.trim() === 'application/wasm')
    return WebAssembly.compileStreaming(response);
  return WebAssembly.compile(await response.arrayBuffer());
});

export * from '../index.js';
