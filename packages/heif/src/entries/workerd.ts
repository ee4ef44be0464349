// Cloudflare Workers entry: workerd compiles heif.wasm at upload (it forbids compiling from bytes), and
// the module import, kept in the bundle for wrangler, hands it over.
import { WASM_MODULES } from 'glimpse:wasm-modules';
import { registerHeif } from '../register-heif.js';

registerHeif(async () => {
  const module = WASM_MODULES['heif'];
  if (module === undefined) throw new Error('the Workers bundle was built without heif.wasm');
  return module;
});

export * from '../index.js';
