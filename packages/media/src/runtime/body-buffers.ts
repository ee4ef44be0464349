// Request bodies read into buffers that the next request reuses. A body read with `arrayBuffer()` is a
// new buffer per request, garbage once its job ends, and workerd collects such buffers late: 20 mixed
// requests served one at a time grew a Worker by 99.6 MB reading each with `arrayBuffer()`, by 72.4 MB
// reading each into the buffer the last one used (docs/runtimes.md "Many requests in one isolate").
// So processRequest reads a body into a buffer from here and gives it back when its job ends.

/** Most buffers kept idle: a governed Worker reads one large body at a time, and an idle buffer is held memory. */
const MAX_IDLE = 1;

const idle: ArrayBuffer[] = [];

/** A buffer of at least `bytes`: the smallest idle one that holds it, otherwise new. Its contents are not cleared. */
export function bodyBuffer(bytes: number): ArrayBuffer {
  let best = -1;
  idle.forEach((buffer, i) => {
    if (buffer.byteLength >= bytes && (best < 0 || buffer.byteLength < idle[best]!.byteLength)) best = i;
  });
  return best >= 0 ? idle.splice(best, 1)[0]! : new ArrayBuffer(bytes);
}

/** Keeps `buffer` for a later body; nothing may read it any more. With MAX_IDLE kept, the smallest goes. */
export function releaseBodyBuffer(buffer: ArrayBuffer): void {
  if (buffer.byteLength === 0 || idle.includes(buffer)) return;
  idle.push(buffer);
  idle.sort((a, b) => b.byteLength - a.byteLength);
  if (idle.length > MAX_IDLE) idle.pop();
}

/** How many buffers are idle (for tests). */
export function idleBodyBuffers(): number {
  return idle.length;
}
