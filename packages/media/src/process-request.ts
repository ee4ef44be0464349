// `process` for a request that has not been read yet: a Worker's (or any fetch handler's) incoming
// Request. A body read before its job may start is memory the isolate holds while the job waits, and a
// body read with `arrayBuffer()` is garbage the runtime collects late. So the job is admitted by the
// memory governor on the length its body declares, before the body is read; then the body is read into
// a buffer the next request reuses (runtime/body-buffers.ts), the header is read and the admission refitted
// to the job's own estimate. A request that cannot start in time is E_BUSY with its body never read.
import { MediaError } from './errors.js';
import { requestJobMemory } from './pipeline/job-memory.js';
import { resolveLimits } from './presets/limits.js';
import { processAdmitted } from './process.js';
import { bodyBuffer, releaseBodyBuffer } from './runtime/body-buffers.js';
import { memoryGovernor, type Admission } from './runtime/memory-governor.js';
import type { ProcessOptions, ProcessResult } from './types.js';

/** What processRequest reads: a Request (or a Response) whose body is the file. */
export interface RequestWithBody {
  readonly headers: Headers;
  readonly body: ReadableStream<Uint8Array> | null;
  readonly bodyUsed: boolean;
}

/** The first buffer for a body that declares no length; it doubles as it fills. */
const UNDECLARED_START_BYTES = 1024 * 1024;

/**
 * Fits the file that is `request`'s body, as `process` does. Under a memory governor (the Workers
 * entry's default) the job waits for its turn before the body is read, so requests waiting hold nothing
 * but their place in the queue, and one refused is `E_BUSY` unread. The result owns its bytes.
 */
export async function processRequest(request: RequestWithBody, options: ProcessOptions = {}): Promise<ProcessResult> {
  if (request === null || typeof request !== 'object' || !('headers' in request) || !('body' in request)) {
    throw new MediaError(
      'E_INVALID_INPUT',
      'processRequest() takes a Request (or a Response) whose body is the file; for bytes already read, call process(bytes).',
    );
  }
  if (request.bodyUsed) {
    throw new MediaError(
      'E_INVALID_INPUT',
      'processRequest() was given a request whose body was read already: pass it unread, or call process(bytes) with what was read.',
    );
  }
  const declared = declaredLength(request.headers);
  const governor = memoryGovernor();
  const admission: Admission | undefined = governor
    ? await governor.admit({ estimateBytes: requestJobMemory(declared ?? 0, resolveLimits(options)) })
    : undefined;
  try {
    const input = await readBody(request.body, declared);
    try {
      const result = await processAdmitted(input, options, async (memory, job) => {
        await admission?.refit(memory);
        return job();
      });
      // A file sent as it is may be a view of the input, whose buffer goes back to the pool.
      return result.data.buffer === input.buffer ? { ...result, data: result.data.slice() } : result;
    } finally {
      releaseBodyBuffer(input.buffer as ArrayBuffer);
    }
  } finally {
    admission?.release();
  }
}

function declaredLength(headers: Headers): number | undefined {
  const value = headers.get('content-length');
  if (value === null || !/^\d+$/.test(value.trim())) return undefined;
  const length = Number(value);
  return Number.isSafeInteger(length) ? length : undefined;
}

/** The whole body, in a pooled buffer (room for one byte more than declared: a byte stream's last read needs it). */
async function readBody(body: ReadableStream<Uint8Array> | null, declared: number | undefined): Promise<Uint8Array> {
  let buffer = bodyBuffer(declared === undefined ? UNDECLARED_START_BYTES : declared + 1);
  let filled = 0;
  const room = (bytes: number) => {
    if (filled + bytes <= buffer.byteLength) return;
    const bigger = bodyBuffer(Math.max(2 * buffer.byteLength, filled + bytes + 1));
    new Uint8Array(bigger).set(new Uint8Array(buffer, 0, filled));
    releaseBodyBuffer(buffer);
    buffer = bigger;
  };
  if (body === null) return new Uint8Array(buffer, 0, 0);
  const byob = byobReader(body);
  if (byob) {
    // The runtime writes into the buffer itself (no chunk per read to collect later).
    try {
      for (;;) {
        room(1);
        const { value, done } = await byob.read(new Uint8Array(buffer, filled));
        if (value) {
          buffer = value.buffer as ArrayBuffer; // the read moved the buffer to a new ArrayBuffer object
          filled += value.byteLength;
        }
        if (done) break;
      }
    } finally {
      byob.releaseLock();
    }
  } else {
    const reader = body.getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        room(value.byteLength);
        new Uint8Array(buffer, filled, value.byteLength).set(value);
        filled += value.byteLength;
      }
    } finally {
      reader.releaseLock();
    }
  }
  return new Uint8Array(buffer, 0, filled);
}

/** A reader that fills buffers given to it, when the body is a byte stream (Workers, Deno, Node, browsers' fetch bodies). */
function byobReader(body: ReadableStream<Uint8Array>): ReadableStreamBYOBReader | undefined {
  try {
    return body.getReader({ mode: 'byob' });
  } catch {
    return undefined;
  }
}
