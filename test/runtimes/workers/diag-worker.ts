// Diagnostic twin of load-worker.ts, the steady-load case's Worker: GET answers the WASM memories the
// isolate holds (wasm-memory.ts). GET ?gc first runs two full collections, when workerd was started with
// --expose-gc (the load suite does so for the steady case), and says whether they ran: V8 traces them as
// forced ("testing"), which tells the suite which isolate in the trace is this one. The memories the
// tracker saw created are let go before the collections, so it holds none of them through them.
import { trackWasmMemory } from './wasm-memory.js';
const wasmMemory = trackWasmMemory();
const load = (await import('./load-worker.js')).default;
export default {
  async fetch(request: Request): Promise<Response> {
    if (request.method !== 'POST') {
      const collect = (globalThis as { gc?: () => void }).gc;
      const collected = new URL(request.url).searchParams.has('gc') && typeof collect === 'function';
      wasmMemory.beginRequest();
      // Twice: V8 frees the ArrayBuffers and WASM memories a collection finds dead only after it, so its
      // trace still counts them; the second one's figures are what the first left.
      if (collected) {
        collect();
        collect();
      }
      return Response.json({ collected, collections: collected ? 2 : 0, ...wasmMemory.measure() });
    }
    return load.fetch(request);
  },
};
