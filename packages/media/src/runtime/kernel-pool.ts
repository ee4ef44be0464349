// Started kernel instances kept for the next job. A WASM memory is given back only when V8 collects the
// instance that owns it, and workerd does not collect them while requests keep coming (measured: 24
// requests that each made and dropped a 20 MB memory grew workerd by 481 MB, none finalized; 8 sequential
// 12 MP JPEG jobs by 175 MB). So an instance whose job finished cleanly is reset and reused: its memory is
// set back, byte for byte, to what it held when the instance had started (its static data, the C
// library's state, the allocator's), and the rest is zeroed, which is all a fresh instance differs by
// apart from its size. wasi-libc's allocator takes the memory from the heap's base to the memory's end as
// its first heap, so the next job reuses what the last one grew instead of growing further.
// An instance that threw is dropped: a trap or a failure raised through the C stack leaves the stack
// pointer (a WASM global, which no reset reaches) where the error left it.
// This is for modules that own their memory: resize (wasm/resize, a few hundred KB an instance, made
// before every decode) and PDFium (a prebuilt module that exports its memory). The codecs (JPEG, PNG,
// TIFF, AVIF, HEIF, the WebP decoder and encoder) are linked to import their memory and share one pool of
// memories instead (memory-pool.ts); kept here, PNG's and the WebP decoder's instances held 5.0 and 1.4 MB
// beside that pool in the load suite's mixed-format case.

/** Most idle instances kept per module: the jobs a governed isolate runs at once are few. */
export const MAX_IDLE_PER_MODULE = 2;

/**
 * An instance whose memory grew past this is dropped, not kept: without a per-call cap (Node, browsers) a
 * huge image's decoder (a huge PDF page's PDFium) would stay held for good. The Workers caps keep every
 * instance below it (PDFium 80 MiB), so there everything is reused.
 */
export const MAX_KEPT_INSTANCE_BYTES = 100 * 2 ** 20;

interface ModulePool<T> {
  /** The memory of a freshly started instance (after `_initialize`), the same for every instance of the module. */
  image: Uint8Array;
  idle: T[];
}

const pools = new Map<string, ModulePool<unknown>>();

/** An idle started instance of module `name`, or undefined when there is none. */
export function takeIdleInstance<T>(name: string): T | undefined {
  return (pools.get(name) as ModulePool<T> | undefined)?.idle.pop();
}

/** Records the memory of a freshly started instance of `name`, the image later resets return to (once per module). */
export function rememberStartedImage(name: string, memory: WebAssembly.Memory): void {
  if (!pools.has(name)) pools.set(name, { image: new Uint8Array(memory.buffer.slice(0)), idle: [] });
}

/**
 * Resets `memory` to its module's started image and keeps `instance` for the next job, unless enough
 * instances of the module are idle already or its memory is past MAX_KEPT_INSTANCE_BYTES (then it is
 * dropped, for V8 to collect when it will).
 */
export function keepForReuse<T>(name: string, instance: T, memory: WebAssembly.Memory): void {
  const pool = pools.get(name) as ModulePool<T> | undefined;
  const size = memory.buffer.byteLength;
  if (!pool || pool.idle.length >= MAX_IDLE_PER_MODULE || size < pool.image.byteLength) return;
  if (size > MAX_KEPT_INSTANCE_BYTES) return;
  const bytes = new Uint8Array(memory.buffer);
  bytes.set(pool.image);
  bytes.fill(0, pool.image.byteLength);
  pool.idle.push(instance);
}

/** How many idle instances each module has (for tests and diagnostics). */
export function idleInstances(): Record<string, number> {
  return Object.fromEntries([...pools].map(([name, pool]) => [name, pool.idle.length]));
}

/** Drops every idle instance (a runtime entry that replaces the WASM loader calls it: the modules change). */
export function dropIdleInstances(): void {
  pools.clear();
}
