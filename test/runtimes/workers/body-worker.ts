// A Worker that only reads each request's body and answers its length: what many uploads at once cost
// an isolate before any code of glimpse runs (run-load-suite.ts compares its load cases against it).
// GET ?gc runs a full collection first when workerd has --expose-gc (the suite's LOAD_GC=1 diagnosis).
export default {
  async fetch(request: Request): Promise<Response> {
    if (request.method !== 'POST') {
      const collect = (globalThis as { gc?: () => void }).gc;
      const collected = new URL(request.url).searchParams.has('gc') && typeof collect === 'function';
      if (collected) collect();
      return Response.json({ collected });
    }
    return new Response(String((await request.arrayBuffer()).byteLength));
  },
};
