// Cloudflare Workers entry: workerd compiles heif.wasm at upload (it forbids compiling from bytes), and
// the module import hands it over.
import heifWasm from '../../wasm/heif.wasm';
import { registerHeif } from '../register-heif.js';

registerHeif(async () => {
  if (!(heifWasm instanceof WebAssembly.Module))
    throw new Error('the Worker was bundled without a CompiledWasm rule for heif.wasm');
  return heifWasm;
});

export * from '../index.js';
