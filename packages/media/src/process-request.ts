// `process` for a request that has not been read yet: a Worker's (or any fetch handler's) incoming
// Request. A body read before its job may start is memory the isolate holds while the job waits, and a
// body read with `arrayBuffer()` is garbage the runtime collects late. So the job is admitted by the
// memory governor on the length its body declares, before the body is read; then the body is read into
// a buffer the next request reuses (runtime/body-buffers.ts), the header is read and the admission refitted
// to the job's own estimate. A request that cannot start in time is E_BUSY with its body never read.
// No body is read past `maxInputBytes` (E_TOO_LARGE) or past the length it declares (E_INVALID_INPUT): a
// client's stream is otherwise memory without end. A body that declares no length is admitted at what it
// has sent so far, refitted each time its buffer grows. A body that stops arriving holds its admission
// while it is read, so the read is bounded in time too: it ends, E_TIMEOUT with `details.stage: 'upload'`,
// when no bytes came for `bodyIdleMs` (10 s by default) or when the whole read took longer than
// `bodyTimeoutMs` (20 s by default: a client that sends a byte now and then is never idle) or `timeoutMs`
// (when one is set and shorter; the job's own `timeoutMs` counts again from when the body is read). A body that fails
// or ends short of its Content-Length is E_INVALID_INPUT: the upload ended early.
import { isMediaError, MediaError } from './errors.js';
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
 * The default `maxInputBytes`: 16 MiB, a large phone photo or scanned PDF. Its job's estimate at that size
 * (4 x the body for a PDF + 24 MiB, pipeline/job-memory.ts) is 88 MiB: it runs alone within a Worker's 128 MB.
 */
export const DEFAULT_MAX_INPUT_BYTES = 16 * 1024 * 1024;

/**
 * The default `bodyIdleMs`: 10 s with no byte of the body arriving. A client that sends nothing for that
 * long has stalled, and its job holds its memory admission while it is read: under the governor (the
 * Workers entry's default) every later job would wait behind it.
 */
export const DEFAULT_BODY_IDLE_MS = 10_000;

/**
 * The default `bodyTimeoutMs`: 20 s for the whole body to arrive (16 MiB at 840 KB/s, a 3 MB photo at
 * 150 KB/s). A client that trickles a byte every few seconds is never idle, and would otherwise hold its
 * admission as long as it likes; under the 30 s the Workers entry lets a job wait for its turn, so a job
 * queued behind the slowest upload is still admitted.
 */
export const DEFAULT_BODY_TIMEOUT_MS = 20_000;

/** Options of `processRequest`: `process`'s, and the most body it reads and how long it waits for it. */
export interface ProcessRequestOptions extends ProcessOptions {
  /** Largest body in bytes (default 16 MiB); past it, or a Content-Length over it, `E_TOO_LARGE` (HTTP 413). */
  maxInputBytes?: number;
  /**
   * Longest gap, in ms, with no byte of the body arriving (default 10,000); past it the read ends with
   * `E_TIMEOUT` (`details.stage: 'upload'`) and the job's admission is given back. `timeoutMs`, when set,
   * also bounds the whole read (and then, counted again, the work).
   */
  bodyIdleMs?: number;
  /**
   * Longest, in ms, the whole body may take to arrive (default 20,000); past it, `E_TIMEOUT`
   * (`details.stage: 'upload'`, `details.bodyTimeoutMs`) and the admission is given back. A shorter
   * `timeoutMs` bounds the read instead.
   */
  bodyTimeoutMs?: number;
}

/**
 * Fits the file that is `request`'s body, as `process` does. Under a memory governor (the Workers
 * entry's default) the job waits for its turn before the body is read, so requests waiting hold nothing
 * but their place in the queue, and one refused is `E_BUSY` unread. The result owns its bytes.
 */
export async function processRequest(
  request: RequestWithBody,
  { maxInputBytes, bodyIdleMs, bodyTimeoutMs, ...options }: ProcessRequestOptions = {},
): Promise<ProcessResult> {
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
  const cap = positiveOption('maxInputBytes', maxInputBytes, DEFAULT_MAX_INPUT_BYTES);
  const idleMs = positiveOption('bodyIdleMs', bodyIdleMs, DEFAULT_BODY_IDLE_MS);
  const wholeMs = positiveOption('bodyTimeoutMs', bodyTimeoutMs, DEFAULT_BODY_TIMEOUT_MS);
  const declared = declaredLength(request.headers);
  if (declared !== undefined && declared > cap) throw tooLarge(cap, declared);
  const limits = resolveLimits(options);
  const governor = memoryGovernor();
  const admission: Admission | undefined = governor
    ? await governor.admit({ estimateBytes: requestJobMemory(declared ?? UNDECLARED_START_BYTES, limits) })
    : undefined;
  try {
    // An undeclared body's admission grows with its buffer (a refit may wait for room, holding what was read).
    const grown = async (capacity: number) => admission?.refit({ estimateBytes: requestJobMemory(capacity, limits) });
    // The whole read's bound: bodyTimeoutMs, or the job's timeoutMs when that is shorter.
    const whole =
      limits.timeoutMs !== undefined && limits.timeoutMs <= wholeMs
        ? { limitMs: limits.timeoutMs, option: 'timeoutMs' as const }
        : { limitMs: wholeMs, option: 'bodyTimeoutMs' as const };
    const input = await readBody(request.body, { declared, cap, grown, idleMs, whole });
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

/** The Content-Length, if the request has one; one that is not a whole number of bytes is refused. */
function declaredLength(headers: Headers): number | undefined {
  const value = headers.get('content-length');
  if (value === null) return undefined;
  // Headers joins repeated fields with ", ": the same length repeated is one length (RFC 9110 8.6).
  const lengths = new Set(value.split(',').map((part) => part.trim()));
  const [length] = lengths;
  if (lengths.size !== 1 || !/^\d+$/.test(length!) || !Number.isSafeInteger(Number(length)))
    throw new MediaError(
      'E_INVALID_INPUT',
      `The request's Content-Length is ${JSON.stringify(value)}, not a length in bytes: send the upload again with its length (or none).`,
      { contentLength: value },
    );
  return Number(length);
}

function positiveOption(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0)
    throw new MediaError(
      'E_INVALID_OPTIONS',
      `Expected ${name} to be a positive whole number${name.endsWith('Ms') ? ' of ms' : ' of bytes'}, got ${String(value)}.`,
      { option: name },
    );
  return value;
}

function tooLarge(cap: number, bytes: number): MediaError {
  return new MediaError(
    'E_TOO_LARGE',
    `The request body is over ${cap} bytes, the most processRequest reads (maxInputBytes): send a smaller file.`,
    { maxInputBytes: cap, bytes },
  );
}

interface BodyBounds {
  /** The length the body declares, if it does: a body longer than it is refused there. */
  declared: number | undefined;
  /** maxInputBytes. */
  cap: number;
  /** Called before the buffer of an undeclared body grows to `capacity` bytes. */
  grown: (capacity: number) => Promise<void>;
  /** Longest wait for the next bytes. */
  idleMs: number;
  /** Longest the whole read may take, and the option that said so. */
  whole: { limitMs: number; option: 'timeoutMs' | 'bodyTimeoutMs' };
}

/**
 * The whole body, in a pooled buffer (room for one byte more than its limit: a byte stream's last read needs
 * it, and a byte past the limit is how a body too long is seen). Stops, cancelling the stream, at the first
 * read past the declared length or the cap.
 */
async function readBody(
  body: ReadableStream<Uint8Array> | null,
  { declared, cap, grown, idleMs, whole }: BodyBounds,
): Promise<Uint8Array> {
  const limit = declared ?? cap;
  const began = Date.now();
  /** `read`, or E_TIMEOUT when no bytes come for idleMs or the read passes its whole bound; `cancel` ends the stream. */
  const timed = <T>(read: Promise<T>, cancel: () => Promise<void>): Promise<T> => {
    const left = whole.limitMs - (Date.now() - began);
    const wait = Math.max(0, Math.min(idleMs, left));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stalled = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const tooLong = wait < idleMs;
        reject(
          new MediaError(
            'E_TIMEOUT',
            tooLong
              ? `The upload took longer than ${whole.option} (${whole.limitMs} ms) to arrive, ${filled} bytes in: it was ended; send it again${whole.option === 'bodyTimeoutMs' ? ' over a faster connection, or raise bodyTimeoutMs' : ''}.`
              : `The upload stalled: no bytes came for ${idleMs} ms (bodyIdleMs), ${filled} bytes in: it was ended; send it again.`,
            {
              stage: 'upload',
              ...(tooLong ? { [whole.option]: whole.limitMs } : { bodyIdleMs: idleMs }),
              bytes: filled,
              declaredBytes: declared,
            },
          ),
        );
        cancel().catch(() => undefined);
      }, wait);
    });
    return Promise.race([read, stalled]).finally(() => clearTimeout(timer));
  };
  /** A failure of the stream itself (the client went away) is an upload that ended early. */
  const endedEarly = (error: unknown) =>
    isMediaError(error)
      ? error
      : new MediaError(
          'E_INVALID_INPUT',
          `The upload ended early, ${filled} bytes in${declared === undefined ? '' : ` of ${declared}`} (the request body failed: ${error instanceof Error ? error.message : String(error)}): send it again.`,
          { bytes: filled, declaredBytes: declared },
          { cause: error },
        );
  // What the admission counts, apart from the buffer's size: a pooled buffer may be bigger than asked for.
  let admitted = declared === undefined ? Math.min(UNDECLARED_START_BYTES, cap + 1) : declared + 1;
  let buffer = bodyBuffer(admitted);
  let filled = 0;
  const room = async (bytes: number) => {
    if (filled + bytes > admitted) {
      admitted = Math.min(Math.max(2 * admitted, filled + bytes + 1), limit + 1);
      await grown(admitted);
    }
    if (filled + bytes <= buffer.byteLength) return;
    const bigger = bodyBuffer(admitted);
    new Uint8Array(bigger).set(new Uint8Array(buffer, 0, filled));
    releaseBodyBuffer(buffer);
    buffer = bigger;
  };
  /** The error for a body that ran past its limit after `bytes` were sent. */
  const overLimit = (bytes: number) =>
    declared === undefined
      ? tooLarge(cap, bytes)
      : new MediaError(
          'E_INVALID_INPUT',
          `The request body is longer than its Content-Length (${declared} bytes): it was refused where it passed it.`,
          { declaredBytes: declared, bytes },
        );
  if (body === null) return new Uint8Array(buffer, 0, 0);
  try {
    const byob = byobReader(body);
    if (byob) {
      // The runtime writes into the buffer itself (no chunk per read to collect later).
      try {
        for (;;) {
          await room(1);
          const { value, done } = await timed(
            byob.read(new Uint8Array(buffer, filled, Math.min(buffer.byteLength, admitted) - filled)),
            () => byob.cancel(),
          ).catch((error: unknown) => {
            throw endedEarly(error);
          });
          if (value) {
            buffer = value.buffer as ArrayBuffer; // the read moved the buffer to a new ArrayBuffer object
            filled += value.byteLength;
          }
          if (filled > limit) throw overLimit(filled);
          if (done) break;
        }
      } catch (error) {
        await byob.cancel().catch(() => undefined);
        throw error;
      } finally {
        byob.releaseLock();
      }
    } else {
      const reader = body.getReader();
      try {
        for (;;) {
          const { value, done } = await timed(reader.read(), () => reader.cancel()).catch((error: unknown) => {
            throw endedEarly(error);
          });
          if (done) break;
          if (filled + value.byteLength > limit) throw overLimit(filled + value.byteLength);
          await room(value.byteLength);
          new Uint8Array(buffer, filled, value.byteLength).set(value);
          filled += value.byteLength;
        }
      } catch (error) {
        await reader.cancel().catch(() => undefined);
        throw error;
      } finally {
        reader.releaseLock();
      }
    }
  } catch (error) {
    releaseBodyBuffer(buffer);
    throw error;
  }
  if (declared !== undefined && filled < declared) {
    releaseBodyBuffer(buffer);
    throw new MediaError(
      'E_INVALID_INPUT',
      `The upload ended early: its body is ${filled} bytes, shorter than its Content-Length (${declared} bytes); send it again.`,
      { declaredBytes: declared, bytes: filled },
    );
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
