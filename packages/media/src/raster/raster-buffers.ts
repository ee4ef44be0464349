// The fitted raster is a job's largest JS allocation (12 MB for a 2000 px photo), and workerd collects
// them late: 24 Retina screenshots fitted one after another grew it by 289 MB (flat in Node after a GC).
// So the raster a finished job fitted is kept for the next job's, as its kernel instances are
// (runtime/kernel-pool.ts): a buffer given back is handed out again, zeroed, for a raster up to its size.

/**
 * Most buffers kept idle: a governed Worker runs one job of a photo at a time, and each idle one is held
 * memory (12 MB at 2000 px). Two, and the smallest goes when a third comes back: with one, kept the latest,
 * a small job's raster (an icon, a vector) pushed out a photo's, so under a mix of formats and sizes
 * nearly every photo made a new 12 MB buffer for workerd to collect late (docs/runtimes.md "Steady load").
 */
const MAX_IDLE = 2;

const idle: ArrayBuffer[] = [];
const lent = new WeakSet<ArrayBuffer>();
let made = 0;

/**
 * `bytes` zeroed bytes for a raster: in an idle buffer at most twice that size when there is one (the
 * view starts at 0 and is exactly `bytes` long), otherwise new.
 */
export function rasterBuffer(bytes: number): Uint8Array {
  let best = -1;
  idle.forEach((buffer, i) => {
    const fits = buffer.byteLength >= bytes && buffer.byteLength <= 2 * bytes;
    if (fits && (best < 0 || buffer.byteLength < idle[best]!.byteLength)) best = i;
  });
  if (best < 0) made++;
  const buffer = best >= 0 ? idle.splice(best, 1)[0]! : new ArrayBuffer(bytes);
  lent.add(buffer);
  const data = new Uint8Array(buffer, 0, bytes);
  if (best >= 0) data.fill(0);
  return data;
}

/**
 * Gives back the buffer of `data`, a raster from rasterBuffer that nothing reads any more (the caller's
 * promise: the job's output is encoded, not a view of it). Anything else is left alone.
 */
export function releaseRasterBuffer(data: Uint8Array): void {
  const buffer = data.buffer;
  if (!(buffer instanceof ArrayBuffer) || !lent.has(buffer)) return;
  lent.delete(buffer);
  idle.push(buffer);
  idle.sort((a, b) => b.byteLength - a.byteLength);
  if (idle.length > MAX_IDLE) idle.pop();
}

/** The sizes of the idle buffers, largest first, and how many were ever made (for tests and measurements). */
export function idleRasterBuffers(): { idle: number[]; made: number } {
  return { idle: idle.map((buffer) => buffer.byteLength), made };
}
