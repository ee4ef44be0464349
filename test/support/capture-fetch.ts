// A `fetch` that never leaves the process: it keeps every request and answers from a script, so a test can
// assert exactly what an SDK would have put on the wire.

export interface CapturedRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  /** The raw body text, as it would have been sent. */
  text: string;
  /** The body parsed as JSON (undefined when it is not JSON). */
  json: unknown;
}

export type Reply = (request: CapturedRequest, index: number) => Response | Promise<Response>;

export interface CaptureFetch {
  fetch: typeof fetch;
  requests: CapturedRequest[];
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A capturing fetch answering the n-th request with `reply(request, n)`. */
export function captureFetch(reply: Reply): CaptureFetch {
  const requests: CapturedRequest[] = [];
  const fake = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const text = await request.text();
    const headers: Record<string, string> = {};
    request.headers.forEach((value, key) => (headers[key] = value));
    const captured: CapturedRequest = { url: request.url, method: request.method, headers, text, json: parse(text) };
    requests.push(captured);
    return reply(captured, requests.length - 1);
  };
  return { fetch: fake as typeof fetch, requests };
}

/** A JSON response. */
export const jsonResponse = (body: unknown, status = 200): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
