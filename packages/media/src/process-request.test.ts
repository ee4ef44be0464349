import { afterEach, describe, expect, it } from 'vitest';
import { MediaError } from '@glimpse/media';
import { configureMemoryGovernor, process, processRequest, type RequestWithBody } from './entries/node.js';
import * as make from '../../../test/fixtures/make.js';
import { assertStrictlyValid } from '../../../test/support/strict-oracle.js';
import { failsWith } from '../../../test/support/typed-errors.js';
import { idleBodyBuffers } from './runtime/body-buffers.js';

const MB = 2 ** 20;

afterEach(() => {
  configureMemoryGovernor(undefined);
});

/** A Request POSTing `bytes`. */
const post = (bytes: Uint8Array) =>
  new Request('http://localhost/', { method: 'POST', body: bytes as Uint8Array<ArrayBuffer> });

/** A request whose body is `bytes` in `chunk`-byte parts, recording when the body is first read. */
function watchedRequest(bytes: Uint8Array, { declare = true, chunk = 64 * 1024 } = {}) {
  const watch = { read: false };
  let at = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        watch.read = true;
        if (at >= bytes.byteLength) return controller.close();
        controller.enqueue(bytes.slice(at, at + chunk));
        at += chunk;
      },
    },
    { highWaterMark: 0 },
  ); // pulled only when read
  const headers = new Headers(declare ? { 'content-length': String(bytes.byteLength) } : {});
  const request: RequestWithBody = { headers, body, bodyUsed: false };
  return { request, watch };
}

describe('processRequest', () => {
  it("fits a Request's body byte for byte as process fits the same bytes (byte stream, declared length)", async () => {
    const photo = await make.photoJpeg({ width: 1200, height: 900, seed: 3 });
    const options = { maxEdge: 400 };
    const request = post(photo);
    const fromRequest = await processRequest(request, options);
    const fromBytes = await process(photo, options);
    assertStrictlyValid(fromRequest.data, fromRequest.mediaType);
    expect({ width: fromRequest.width, height: fromRequest.height }).toEqual({ width: 400, height: 300 });
    expect(Buffer.from(fromRequest.data).equals(Buffer.from(fromBytes.data))).toBe(true);
    expect(idleBodyBuffers()).toBeGreaterThan(0); // its body buffer went back for the next request
  });

  it('reads a body of undeclared length past its first buffer, from a stream that is not a byte stream', async () => {
    const photo = await make.photoJpeg({ width: 2400, height: 1800, quality: 98, seed: 5 });
    expect(photo.byteLength).toBeGreaterThan(MB); // past the 1 MiB first buffer: it grows
    const { request } = watchedRequest(photo, { declare: false, chunk: 100_000 });
    const result = await processRequest(request, { maxEdge: 300 });
    const expected = await process(photo, { maxEdge: 300 });
    assertStrictlyValid(result.data, result.mediaType);
    expect(Buffer.from(result.data).equals(Buffer.from(expected.data))).toBe(true);
  });

  it('a file sent as it is owns its bytes: the next request reuses the body buffer, not the result', async () => {
    const small = await make.screenshotPng({ width: 300, height: 200, seed: 11 });
    const first = await processRequest(post(small));
    expect(first.reencoded).toBe(false);
    const other = await make.screenshotPng({ width: 300, height: 200, seed: 12 });
    await processRequest(post(other));
    expect(Buffer.from(first.data).equals(Buffer.from(small))).toBe(true);
  });

  it('waits for the governor before reading the body, and a refused request is E_BUSY with its body unread', async () => {
    // A budget below one job's estimate: each runs alone; one may wait.
    configureMemoryGovernor({ maxConcurrentMemory: 1 * MB, maxQueuedJobs: 1 });
    const photo = await make.photoJpeg({ width: 800, height: 600, seed: 8 });
    const a = watchedRequest(photo);
    const b = watchedRequest(photo);
    const c = watchedRequest(photo);
    const first = processRequest(a.request, { maxEdge: 200 });
    const second = processRequest(b.request, { maxEdge: 200 });
    const refused = await failsWith(processRequest(c.request, { maxEdge: 200 }), MediaError, 'E_BUSY');
    expect(refused.details['retryAfterMs']).toBeGreaterThanOrEqual(1000);
    expect(c.watch.read).toBe(false);
    expect(b.watch.read).toBe(false); // waiting, holding nothing but its place
    expect(a.watch.read).toBe(true);
    const results = await Promise.all([first, second]);
    expect(b.watch.read).toBe(true);
    for (const result of results) assertStrictlyValid(result.data, result.mediaType);
  });

  it('refuses a read body and what is not a request, typed', async () => {
    const request = new Request('http://localhost/', { method: 'POST', body: new Uint8Array([1, 2, 3]) });
    await request.arrayBuffer();
    await failsWith(processRequest(request), MediaError, 'E_INVALID_INPUT');
    await failsWith(processRequest(new Uint8Array(3) as unknown as Request), MediaError, 'E_INVALID_INPUT');
  });
});

describe('the governor in Node (opt-in), jobs at once', () => {
  it('keeps the admitted estimates within maxConcurrentMemory while running jobs side by side; every output strict-read', async () => {
    const governor = configureMemoryGovernor({ maxConcurrentMemory: 80 * MB });
    const photo = await make.photoJpeg({ width: 900, height: 600, seed: 2 });
    const png = await make.screenshotPng({ width: 800, height: 500, seed: 4 });
    const jobs = Array.from({ length: 12 }, (_, i) => {
      const input = i % 2 === 0 ? photo : png;
      return i % 3 === 0 ? processRequest(post(input), { maxEdge: 300 }) : process(input, { maxEdge: 300 });
    });
    let mostInFlight = 0; // jobs running or waiting when one ends
    const results = await Promise.all(
      jobs.map((job) =>
        job.then((result) => {
          const { runningJobs, queuedJobs } = governor!.state();
          mostInFlight = Math.max(mostInFlight, runningJobs + queuedJobs);
          return result;
        }),
      ),
    );
    for (const result of results) assertStrictlyValid(result.data, result.mediaType);
    const state = governor!.state();
    expect(state).toMatchObject({ runningJobs: 0, queuedJobs: 0, admittedBytes: 0 });
    expect(state.peakAdmittedBytes).toBeLessThanOrEqual(80 * MB);
    // More than one job's estimate (24 MiB and more each): some ran side by side, and some waited.
    expect(state.peakAdmittedBytes).toBeGreaterThan(48 * MB);
    expect(mostInFlight).toBeGreaterThan(1);
  });
});
