// The Worker of `npm run test:workers`: POST an input with its options as JSON in `x-options`; the
// response body is the processed bytes and `x-result` holds the facts the manifest records. A
// MediaError answers 422 with its code. `x-wasm-memory` reports WASM memory use (see wasm-memory.ts).
import { isMediaError, process, type ProcessOptions } from '@glimpse/media';
import { trackWasmMemory } from './wasm-memory.js';

const wasmMemory = trackWasmMemory();

async function handle(request: Request): Promise<Response> {
  if (request.method !== 'POST') return new Response('POST an input with x-options\n', { status: 405 });
  const options: ProcessOptions = JSON.parse(request.headers.get('x-options') ?? '{}');
  const input = new Uint8Array(await request.arrayBuffer());
  wasmMemory.beginRequest();
  try {
    const result = await process(input, options);
    const facts = { mediaType: result.mediaType, width: result.width, height: result.height, bytes: result.bytes, steps: result.steps };
    return new Response(new Uint8Array(result.data), { headers: { 'x-result': JSON.stringify(facts), 'x-wasm-memory': JSON.stringify(wasmMemory.measure()) } });
  } catch (error) {
    if (!isMediaError(error)) throw error;
    return Response.json({ error: error.code, message: error.message }, { status: 422, headers: { 'x-wasm-memory': JSON.stringify(wasmMemory.measure()) } });
  }
}

export default { fetch: handle };
