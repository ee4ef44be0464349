// A Worker that only reads each request's body and answers its length: what many uploads at once cost
// an isolate before any code of glimpse runs (run-load-suite.ts compares its load cases against it).
// GET ?gc runs two full collections first when workerd has --expose-gc (the suite's steady case, with
// LOAD_WORKER=body-worker.ts: the same rounds and V8 trace, with no glimpse code).
export default {
  async fetch(request: Request): Promise<Response> {
    if (request.method !== 'POST') {
      const collect = (globalThis as { gc?: () => void }).gc;
      const collected = new URL(request.url).searchParams.has('gc') && typeof collect === 'function';
      // Twice: V8 frees the ArrayBuffers and WASM memories a collection finds dead only after it, so its
      // trace still counts them; the second one's figures are what the first left.
      if (collected) {
        collect();
        collect();
      }
      return Response.json({ collected, collections: collected ? 2 : 0 });
    }
    return new Response(String((await request.arrayBuffer()).byteLength));
  },
};
