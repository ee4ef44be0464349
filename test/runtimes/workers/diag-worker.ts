// Diagnostic twin of load-worker.ts: GET answers the WASM memories the isolate holds (wasm-memory.ts).
// GET ?gc first runs a full collection, when workerd was started with --expose-gc (the load suite's
// LOAD_GC=1 does so), and says whether it ran: growth that such a collection gives back is garbage V8
// collected late, not memory a request kept.
import { trackWasmMemory } from './wasm-memory.js';
const wasmMemory = trackWasmMemory();
const load = (await import('./load-worker.js')).default;
export default {
  async fetch(request: Request): Promise<Response> {
    if (request.method !== 'POST') {
      const collect = (globalThis as { gc?: () => void }).gc;
      const collected = new URL(request.url).searchParams.has('gc') && typeof collect === 'function';
      if (collected) collect();
      return Response.json({ collected, ...wasmMemory.measure() });
    }
    return load.fetch(request);
  },
};
