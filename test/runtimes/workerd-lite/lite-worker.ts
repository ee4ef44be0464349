// The Worker of workerd-lite.test.ts: POST an input, with `x-call` naming what to do (`process`, with its
// options as JSON in `x-options`; or `pdfText`); the answer is the output's bytes with its facts in
// `x-result`, or 422 with a MediaError's code and message.
import { isMediaError, pdfText, process, type ProcessOptions } from '@glimpse/media/workerd-lite';

export default {
  async fetch(request: Request): Promise<Response> {
    const input = new Uint8Array(await request.arrayBuffer());
    try {
      if (request.headers.get('x-call') === 'pdfText') {
        const text = await pdfText(input);
        return new Response(JSON.stringify(text));
      }
      const options: ProcessOptions = JSON.parse(request.headers.get('x-options') ?? '{}');
      const result = await process(input, options);
      const { data, ...facts } = result;
      return new Response(new Uint8Array(data), { headers: { 'x-result': JSON.stringify(facts) } });
    } catch (error) {
      if (!isMediaError(error)) throw error;
      return Response.json({ code: error.code, message: error.message }, { status: 422 });
    }
  },
};
