import { afterEach, describe, expect, it } from 'vitest';
import { MediaError } from '@glimpse/media';
import {
  configureMemoryGovernor,
  DEFAULT_MAX_INPUT_BYTES,
  memoryGovernor,
  process,
  processRequest,
  type RequestWithBody,
} from './entries/node.js';
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

/** A body of `head` then `zeros` zero bytes in 1 MiB chunks, counting what was pulled from it; `onPull` before each pull. */
function paddedRequest(head: Uint8Array, zeros: number, declared?: number, onPull?: () => void) {
  const pulled = { bytes: 0, cancelled: false, lowestMargin: Infinity };
  let sentHead = false;
  let sentZeros = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        onPull?.();
        // What the governor admits beyond twice what was read so far and a job's 24 MiB.
        const admitted = memoryGovernor()?.state().admittedBytes;
        if (admitted !== undefined && pulled.bytes > 0)
          pulled.lowestMargin = Math.min(pulled.lowestMargin, admitted - (2 * pulled.bytes + 24 * MB));
        if (!sentHead) {
          sentHead = true;
          pulled.bytes += head.byteLength;
          return controller.enqueue(head.slice());
        }
        if (sentZeros >= zeros) return controller.close();
        const n = Math.min(MB, zeros - sentZeros);
        sentZeros += n;
        pulled.bytes += n;
        controller.enqueue(new Uint8Array(n));
      },
      cancel() {
        pulled.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  const headers = new Headers(declared === undefined ? {} : { 'content-length': String(declared) });
  const request: RequestWithBody = { headers, body, bodyUsed: false };
  return { request, pulled };
}

describe('processRequest bounds the body it reads (maxInputBytes)', () => {
  it('a body of no declared length stops at the cap: E_TOO_LARGE, read no further than one chunk past it, stream cancelled', async () => {
    configureMemoryGovernor({ maxConcurrentMemory: 80 * MB });
    const photo = await make.photoJpeg({ width: 400, height: 300, seed: 21 });
    const { request, pulled } = paddedRequest(photo, 64 * MB);
    const error = await failsWith(processRequest(request, { maxInputBytes: 4 * MB }), MediaError, 'E_TOO_LARGE');
    expect(error.details['maxInputBytes']).toBe(4 * MB);
    expect(pulled.bytes).toBeLessThanOrEqual(5 * MB + photo.byteLength);
    expect(pulled.cancelled).toBe(true);
  });

  it('a body of no declared length is admitted as it grows: the admitted estimate follows the bytes read', async () => {
    configureMemoryGovernor({ maxConcurrentMemory: 80 * MB });
    const photo = await make.photoJpeg({ width: 400, height: 300, seed: 22 });
    const { request, pulled } = paddedRequest(photo, 6 * MB);
    const result = await processRequest(request, { maxEdge: 200, maxInputBytes: 8 * MB });
    assertStrictlyValid(result.data, result.mediaType);
    // At every read, at least what a job of the bytes read so far is admitted with (2 x input + 24 MiB).
    expect(pulled.lowestMargin).toBeGreaterThanOrEqual(0);
  });

  it('two bodies of no declared length that must both grow past the budget do not wait on each other: both fitted', async () => {
    // Each starts at 28 MiB (a 1 MiB buffer: 4 x 1 MiB + 24 MiB), both fit in 60; each then grows to 8 MiB
    // buffers (56 MiB), which fits beside the other's first admission only while that one waits. A refit
    // that must wait gives its admission back and holds only its input, so one of them always runs.
    const governor = configureMemoryGovernor({ maxConcurrentMemory: 60 * MB, maxWaitMs: 20_000 })!;
    const photo = await make.photoJpeg({ width: 400, height: 300, seed: 23 });
    let mostQueued = 0; // jobs waiting, seen whenever a body is pulled
    const seen = () => (mostQueued = Math.max(mostQueued, governor.state().queuedJobs));
    const bodies = [paddedRequest(photo, 6 * MB, undefined, seen), paddedRequest(photo, 6 * MB, undefined, seen)];
    const results = await Promise.all(
      bodies.map(({ request }) => processRequest(request, { maxEdge: 200, maxInputBytes: 8 * MB })),
    );
    for (const result of results) {
      assertStrictlyValid(result.data, result.mediaType);
      expect({ width: result.width, height: result.height }).toEqual({ width: 200, height: 150 });
    }
    for (const { pulled } of bodies) expect(pulled.bytes).toBe(photo.byteLength + 6 * MB); // each read to its end
    expect(mostQueued).toBeGreaterThan(0); // one did wait to grow
    const state = governor.state();
    expect(state).toMatchObject({ runningJobs: 0, queuedJobs: 0, queuedBytes: 0, admittedBytes: 0 });
    expect(state.peakAdmittedBytes).toBeLessThanOrEqual(60 * MB);
  });

  it('uses a documented default cap that leaves room in a 128 MB Worker', async () => {
    expect(DEFAULT_MAX_INPUT_BYTES).toBe(16 * MB);
    const { request, pulled } = paddedRequest(new Uint8Array([0xff, 0xd8, 0xff]), 40 * MB);
    const error = await failsWith(processRequest(request), MediaError, 'E_TOO_LARGE');
    expect(error.details['maxInputBytes']).toBe(DEFAULT_MAX_INPUT_BYTES);
    expect(pulled.bytes).toBeLessThanOrEqual(17 * MB);
  });

  it('a declared length over the cap is E_TOO_LARGE with the body unread', async () => {
    const { request, pulled } = paddedRequest(new Uint8Array(10), 0, 32 * MB);
    await failsWith(processRequest(request, { maxInputBytes: 16 * MB }), MediaError, 'E_TOO_LARGE');
    expect(pulled.bytes).toBe(0);
  });

  it('a body longer than its Content-Length is refused where it passes it (E_INVALID_INPUT), not read to its end', async () => {
    const photo = await make.photoJpeg({ width: 400, height: 300, seed: 23 });
    const { request, pulled } = paddedRequest(photo, 64 * MB, 1000);
    const error = await failsWith(processRequest(request), MediaError, 'E_INVALID_INPUT');
    expect(error.details['declaredBytes']).toBe(1000);
    expect(pulled.bytes).toBeLessThanOrEqual(photo.byteLength + MB);
    expect(pulled.cancelled).toBe(true);
  });

  it('refuses a maxInputBytes that is not a positive integer, typed', async () => {
    await failsWith(processRequest(post(new Uint8Array(3)), { maxInputBytes: 0 }), MediaError, 'E_INVALID_OPTIONS');
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

/** A POST whose body sends `first` and then nothing, never closing (a client that stalled, still connected). */
function stalledRequest(first: Uint8Array, declared: number, { bytes = false } = {}) {
  const state = { cancelled: false };
  const source = {
    start(controller: ReadableStreamDefaultController<Uint8Array>) {
      controller.enqueue(first.slice());
    },
    cancel() {
      state.cancelled = true;
    },
  };
  const body = bytes
    ? new ReadableStream({ ...source, type: 'bytes' } as unknown as UnderlyingByteSource)
    : new ReadableStream<Uint8Array>(source);
  const request = new Request('http://localhost/', {
    method: 'POST',
    body,
    duplex: 'half',
    headers: { 'content-length': String(declared) },
  } as RequestInit);
  return { request, state };
}

/** A request declaring `declared` bytes whose body sends one byte every 5 ms: never idle, never done. */
function tricklingRequest(declared: number) {
  const state = { sent: 0 };
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        controller.enqueue(new Uint8Array([state.sent++ & 0xff]));
      },
    },
    { highWaterMark: 0 },
  );
  const request = new Request('http://localhost/', {
    method: 'POST',
    body,
    duplex: 'half',
    headers: { 'content-length': String(declared) },
  } as RequestInit);
  return { request, state };
}

describe('processRequest bounds the time it reads a body for', () => {
  for (const bytes of [false, true]) {
    it(`a body that stops arriving is E_TIMEOUT (stage upload) after bodyIdleMs, its admission given back, and a job behind it admitted (${bytes ? 'byte stream' : 'default stream'})`, async () => {
      configureMemoryGovernor({ maxConcurrentMemory: 1 * MB, maxWaitMs: 60_000 });
      const photo = await make.photoJpeg({ width: 800, height: 600, seed: 8 });
      const stalled = stalledRequest(photo.subarray(0, 4096), photo.byteLength, { bytes });
      const stalledJob = processRequest(stalled.request, { maxEdge: 200, bodyIdleMs: 50 });
      const honest = processRequest(post(photo), { maxEdge: 200 });
      expect(memoryGovernor()!.state()).toMatchObject({ runningJobs: 1, queuedJobs: 1 }); // the honest one waits
      const error = await failsWith(stalledJob, MediaError, 'E_TIMEOUT');
      expect(error.details).toMatchObject({
        stage: 'upload',
        bodyIdleMs: 50,
        bytes: 4096,
        declaredBytes: photo.byteLength,
      });
      expect(stalled.state.cancelled).toBe(true);
      const result = await honest;
      assertStrictlyValid(result.data, result.mediaType);
      expect(memoryGovernor()!.state()).toMatchObject({ runningJobs: 0, queuedJobs: 0, admittedBytes: 0 });
    });
  }

  it('with timeoutMs, a body that keeps trickling is ended when the whole read passes it (E_TIMEOUT, stage upload)', async () => {
    configureMemoryGovernor({ maxConcurrentMemory: 64 * MB });
    const { request, state } = tricklingRequest(1_000_000);
    const began = Date.now();
    const error = await failsWith(
      processRequest(request, { timeoutMs: 150, bodyIdleMs: 10_000 }),
      MediaError,
      'E_TIMEOUT',
    );
    expect(Date.now() - began).toBeGreaterThanOrEqual(140);
    expect(error.details).toMatchObject({ stage: 'upload', timeoutMs: 150, declaredBytes: 1_000_000 });
    expect(state.sent).toBeGreaterThan(0); // it was trickling, never idle for bodyIdleMs
    expect(memoryGovernor()!.state()).toMatchObject({ runningJobs: 0, admittedBytes: 0 });
  });

  it('without timeoutMs, a body that keeps trickling is ended at bodyTimeoutMs (E_TIMEOUT, stage upload), its admission given back', async () => {
    configureMemoryGovernor({ maxConcurrentMemory: 64 * MB });
    const { request, state } = tricklingRequest(1_000_000);
    const began = Date.now();
    // A timeoutMs longer than bodyTimeoutMs leaves the read to bodyTimeoutMs.
    const error = await failsWith(
      processRequest(request, { bodyIdleMs: 10_000, bodyTimeoutMs: 150, timeoutMs: 60_000 }),
      MediaError,
      'E_TIMEOUT',
    );
    expect(Date.now() - began).toBeGreaterThanOrEqual(140);
    expect(error.details).toMatchObject({ stage: 'upload', bodyTimeoutMs: 150, declaredBytes: 1_000_000 });
    expect(error.message).toMatch(/bodyTimeoutMs \(150 ms\)/);
    expect(state.sent).toBeGreaterThan(0); // it was trickling, never idle for bodyIdleMs
    expect(memoryGovernor()!.state()).toMatchObject({ runningJobs: 0, admittedBytes: 0 });
  });

  it('defaults bodyTimeoutMs to a documented 20 s and refuses one that is not a positive integer, typed', async () => {
    const { DEFAULT_BODY_TIMEOUT_MS } = await import('./process-request.js');
    expect(DEFAULT_BODY_TIMEOUT_MS).toBe(20_000);
    for (const bodyTimeoutMs of [0, -1, 1.5, Number.NaN])
      await failsWith(processRequest(post(new Uint8Array(8)), { bodyTimeoutMs }), MediaError, 'E_INVALID_OPTIONS');
  });

  it('defaults bodyIdleMs to a documented 10 s and refuses one that is not a positive integer, typed', async () => {
    const { DEFAULT_BODY_IDLE_MS } = await import('./process-request.js');
    expect(DEFAULT_BODY_IDLE_MS).toBe(10_000);
    for (const bodyIdleMs of [0, -1, 1.5, Number.NaN])
      await failsWith(processRequest(post(new Uint8Array(8)), { bodyIdleMs }), MediaError, 'E_INVALID_OPTIONS');
  });
});

describe('processRequest refuses an upload that ended early or declares no length it can have, typed', () => {
  it('a body stream that fails (the client went away) is E_INVALID_INPUT, its admission given back', async () => {
    configureMemoryGovernor({ maxConcurrentMemory: 64 * MB });
    let pulls = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulls++ === 0) controller.enqueue(new Uint8Array(4096));
        else controller.error(new Error('client went away'));
      },
    });
    const request = new Request('http://localhost/', {
      method: 'POST',
      body,
      duplex: 'half',
      headers: { 'content-length': '100000' },
    } as RequestInit);
    const error = await failsWith(processRequest(request), MediaError, 'E_INVALID_INPUT');
    expect(error.message).toMatch(/ended early.*client went away.*send it again/);
    expect(error.details).toMatchObject({ bytes: 4096, declaredBytes: 100_000 });
    expect(memoryGovernor()!.state()).toMatchObject({ runningJobs: 0, admittedBytes: 0 });
  });

  it('a body shorter than its Content-Length is E_INVALID_INPUT, not processed', async () => {
    const photo = await make.photoJpeg({ width: 64, height: 48, seed: 3 });
    const request = new Request('http://localhost/', {
      method: 'POST',
      body: new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(photo.slice());
          controller.close();
        },
      }),
      duplex: 'half',
      headers: { 'content-length': String(photo.byteLength + 10) },
    } as RequestInit);
    const error = await failsWith(processRequest(request), MediaError, 'E_INVALID_INPUT');
    expect(error.details).toMatchObject({ bytes: photo.byteLength, declaredBytes: photo.byteLength + 10 });
    // the same bytes with their own length are processed
    expect((await processRequest(post(photo))).width).toBeGreaterThan(0);
  });

  it('a Content-Length that is not a length in bytes is E_INVALID_INPUT with the body unread; the same length repeated is one', async () => {
    for (const contentLength of ['abc', '-5', '1.5', '', '12, 13', '1e3']) {
      const watched = watchedRequest(new Uint8Array(8), { declare: false });
      const headers = new Headers({ 'content-length': contentLength });
      const error = await failsWith(
        processRequest({ headers, body: watched.request.body, bodyUsed: false }),
        MediaError,
        'E_INVALID_INPUT',
      );
      expect(error.details['contentLength']).toBe(headers.get('content-length'));
      expect(watched.watch.read).toBe(false);
    }
    const photo = await make.photoJpeg({ width: 64, height: 48, seed: 3 });
    const headers = new Headers();
    headers.append('content-length', String(photo.byteLength));
    headers.append('content-length', String(photo.byteLength));
    const body = post(photo).body;
    expect((await processRequest({ headers, body, bodyUsed: false })).width).toBeGreaterThan(0);
  });
});
