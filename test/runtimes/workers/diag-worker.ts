// Diagnostic twin of load-worker.ts: GET answers the WASM memories the isolate holds (wasm-memory.ts).
import { trackWasmMemory } from './wasm-memory.js';
const wasmMemory = trackWasmMemory();
const load = (await import('./load-worker.js')).default;
export default {
  async fetch(request: Request): Promise<Response> {
    if (request.method !== 'POST') return Response.json(wasmMemory.measure());
    return load.fetch(request);
  },
};
