// A Worker that only reads each request's body and answers its length: what many uploads at once cost
// an isolate before any code of glimpse runs (run-load-suite.ts compares its load cases against it).
export default {
  async fetch(request: Request): Promise<Response> {
    if (request.method !== 'POST') return new Response('POST a file\n');
    return new Response(String((await request.arrayBuffer()).byteLength));
  },
};
