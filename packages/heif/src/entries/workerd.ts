// Cloudflare Workers entry: workerd compiles heif.wasm at upload (it forbids compiling from bytes); the
// module import, kept in the bundle for wrangler, is what is registered.
import { WASM_MODULES } from 'glimpse:wasm-modules';
import { registerHeif } from '../register-heif.js';

/**
 * Most WASM memory one HEIC decode may reach in a Worker (128 MB in all): a 12 MP single-image HEIC takes
 * about 40 MB, with alpha about 50 (docs/runtimes.md, "Workers memory"); a larger picture is E_TOO_LARGE
 * before libde265 allocates it, instead of an isolate over its limit.
 */
export const WORKERS_HEIF_MAX_MEMORY = 64 * 1024 * 1024;

const module = WASM_MODULES['heif'];
if (module === undefined) throw new Error('the Workers bundle of @glimpse/heif was built without heif.wasm');
registerHeif(module, { maxMemory: WORKERS_HEIF_MAX_MEMORY });

export * from '../index.js';
