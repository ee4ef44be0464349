// Deno entry: the build emits heif.wasm beside this bundle; it is read and compiled on the first HEIC.
import heifWasm from '../../wasm/heif.wasm';
import { registerHeif } from '../register-heif.js';

const heifUrl = (): URL => {
  if (typeof heifWasm !== 'string') throw new Error('the bundle was built without the file loader for heif.wasm');
  return new URL(heifWasm, import.meta.url);
};

declare const Deno: { readFile(path: URL): Promise<Uint8Array<ArrayBuffer>> };
registerHeif(async () => WebAssembly.compile(await Deno.readFile(heifUrl())));

export * from '../index.js';
