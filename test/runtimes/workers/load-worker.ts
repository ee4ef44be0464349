// The Worker of the concurrency suite (concurrent-load.ts), written as a user would deploy one on the
// published Workers entry with default options: POST a file, get it back fitted (`x-result` holds its
// facts). A MediaError answers 422 with its code; E_BUSY, the isolate's memory governor refusing a job
// it could not start in time, answers 503 with Retry-After, which a client retries after.
import '@glimpse/heif'; // registers the HEIC decoder with the same @glimpse/media
import { isMediaError, process } from '@glimpse/media';

async function handle(request: Request): Promise<Response> {
  if (request.method !== 'POST') return new Response('POST a file\n');
  const input = new Uint8Array(await request.arrayBuffer());
  try {
    const result = await process(input);
    const facts = { mediaType: result.mediaType, width: result.width, height: result.height, bytes: result.bytes };
    return new Response(new Uint8Array(result.data), { headers: { 'x-result': JSON.stringify(facts) } });
  } catch (error) {
    if (!isMediaError(error)) throw error;
    if (error.code === 'E_BUSY') {
      const seconds = Math.ceil(Number(error.details['retryAfterMs'] ?? 1000) / 1000);
      return Response.json(
        { error: error.code, message: error.message },
        { status: 503, headers: { 'retry-after': String(seconds) } },
      );
    }
    return Response.json({ error: error.code, message: error.message }, { status: 422 });
  }
}

export default { fetch: handle };
