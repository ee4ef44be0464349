// The Worker of the concurrency suite (run-load-suite.ts), written as a user would deploy one on the
// published Workers entry with default options: POST a file, get it back fitted (`x-result` holds its
// facts). processRequest waits for the isolate's memory governor before it reads the body, so requests
// waiting hold nothing. A MediaError answers 422 with its code; E_BUSY, the governor refusing a job it
// could not start in time, answers 503 with Retry-After, which a client retries after.
// `x-governor: {"maxQueuedJobs": 4, ...}` on a request reconfigures the governor first (the suite's
// E_BUSY case; the Workers entry's budget stays).
import '@glimpse/heif'; // registers the HEIC decoder with the same @glimpse/media
import {
  configureMemoryGovernor,
  isMediaError,
  memoryGovernor,
  type MemoryGovernorOptions,
  processRequest,
} from '@glimpse/media';

async function handle(request: Request): Promise<Response> {
  const governor = request.headers.get('x-governor');
  if (governor !== null) reconfigure(JSON.parse(governor));
  if (request.method !== 'POST') return new Response('POST a file\n');
  try {
    const result = await processRequest(request);
    const facts = { mediaType: result.mediaType, width: result.width, height: result.height, bytes: result.bytes };
    return new Response(result.data as Uint8Array<ArrayBuffer>, {
      headers: { 'content-type': result.mediaType, 'x-result': JSON.stringify(facts) },
    });
  } catch (error) {
    if (!isMediaError(error)) throw error;
    if (error.code === 'E_BUSY') {
      const seconds = Math.ceil(Number(error.details['retryAfterMs']) / 1000);
      return Response.json(
        { error: error.code, message: error.message, retryAfterMs: error.details['retryAfterMs'] },
        { status: 503, headers: { 'retry-after': String(seconds) } },
      );
    }
    return Response.json({ error: error.code, message: error.message }, { status: 422 });
  }
}

/** Replaces the governor's queue bounds, keeping its budget (once: later requests with the same header change nothing). */
function reconfigure(options: Partial<MemoryGovernorOptions>): void {
  const current = memoryGovernor();
  if (!current) return;
  const wanted = { ...options, maxConcurrentMemory: current.maxConcurrentMemory };
  const same = (Object.keys(options) as (keyof MemoryGovernorOptions)[]).every((key) => current[key] === wanted[key]);
  if (!same) configureMemoryGovernor(wanted);
}

export default { fetch: handle };
