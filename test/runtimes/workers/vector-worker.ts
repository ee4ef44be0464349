// The Worker of `npm run test:workers`: POST an input with its options as JSON in `x-options` (and a PDF
// operation in `x-operation`, see VectorOperation); the response body is the output (a text result's
// pages as UTF-8 JSON) and `x-result` holds the facts the manifest records. A
// MediaError answers 422 with its code. `x-wasm-memory` reports WASM memory use (see wasm-memory.ts).
import '@glimpse/heif'; // registers the HEIC decoder with the same @glimpse/media
import * as media from '@glimpse/media';
import { isMediaError, type ProcessOptions } from '@glimpse/media';
import { isPdfText, runOperation, textBytes } from '../run-vectors.js';
import type { VectorOperation } from '../vector-manifest.js';
import { trackWasmMemory } from './wasm-memory.js';

const wasmMemory = trackWasmMemory();

async function handle(request: Request): Promise<Response> {
  if (request.method !== 'POST') return new Response('POST an input with x-options\n', { status: 405 });
  const options: ProcessOptions = JSON.parse(request.headers.get('x-options') ?? '{}');
  const operation: VectorOperation | undefined = JSON.parse(request.headers.get('x-operation') ?? 'null') ?? undefined;
  const input = new Uint8Array(await request.arrayBuffer());
  wasmMemory.beginRequest();
  try {
    const result = await runOperation(media, input, options, operation);
    if (isPdfText(result)) {
      const characters = result.pages.reduce((sum, page) => sum + page.text.length, 0);
      const facts = { mediaType: 'text/plain', pageCount: result.pageCount, characters };
      return new Response(new Uint8Array(textBytes(result)), {
        headers: { 'x-result': JSON.stringify(facts), 'x-wasm-memory': JSON.stringify(wasmMemory.measure()) },
      });
    }
    const facts = {
      mediaType: result.mediaType,
      width: result.width,
      height: result.height,
      bytes: result.bytes,
      steps: result.steps,
    };
    return new Response(new Uint8Array(result.data), {
      headers: { 'x-result': JSON.stringify(facts), 'x-wasm-memory': JSON.stringify(wasmMemory.measure()) },
    });
  } catch (error) {
    if (!isMediaError(error)) throw error;
    return Response.json(
      { error: error.code, message: error.message },
      { status: 422, headers: { 'x-wasm-memory': JSON.stringify(wasmMemory.measure()) } },
    );
  }
}

export default { fetch: handle };
