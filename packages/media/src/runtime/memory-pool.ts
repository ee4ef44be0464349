// One pool of WASM memories for every module linked to import its memory (wasm/heif, wasm/avif, wasm/tiff:
// `-Wl,--import-memory`). A dropped memory is given back only when V8 collects it, and workerd does not
// collect them while requests keep coming (24 requests that each made and dropped a 20 MB memory grew it
// by 481 MB), so memories are kept and reused. Kept per module (kernel-pool.ts), an isolate that decodes
// HEIC, AVIF and TIFF held each format's own (2 × HEIC, AVIF and TIFF at once: +163 MB). Shared, a call
// takes a free memory whatever it last served, instantiates its module over it (the compiled module is
// cached; data segments are written again), and gives it back zeroed: the isolate holds as many memories
// as calls of these modules ever ran at once, each as large as the largest call it served.
// A fresh instance over a zeroed memory is exactly a new instance (its globals, the stack pointer among
// them, are the instance's), so a call that threw gives its memory back too.

/** Most free memories kept; one more given back is dropped (the governor runs few such jobs at once). */
export const MAX_FREE_MEMORIES = 3;

/**
 * A memory that grew past this is dropped, not kept: without a per-call cap (Node, browsers) a huge
 * image's decoder would stay held for good. The Workers caps keep every call below it (AVIF 86 MiB, HEIF 64).
 */
export const MAX_KEPT_MEMORY_BYTES = 100 * 2 ** 20;

const PAGE = 65536;

/**
 * What a new pooled memory starts with: more than any pooled module's static data and stack ask for
 * (heif.wasm 1.1 MiB, avif.wasm 1.4, tiff.wasm 0.4), so a new memory is what a new instance would have had.
 */
export const NEW_MEMORY_BYTES = 2 * 2 ** 20;

/** Free memories, largest last. */
const free: WebAssembly.Memory[] = [];

/**
 * The least memory a module's import asks for, where that is more than NEW_MEMORY_BYTES: learnt when an
 * instantiation failed for it (the JS API does not say a module's limits: a memory smaller than the import
 * asks for is a LinkError, after which it is grown and tried again).
 */
const minimumBytes = new Map<string, number>();

/** Memories in use by a call now (for the state and tests). */
let inUse = 0;

/**
 * Runs `use` with a fresh instance of `module`, made by `instantiate` over a memory from the pool (imported
 * as `env.memory`), and gives the memory back when `use` settles, however it ends. `name` identifies the
 * module (for its minimum memory).
 */
export async function withPooledMemory<T, R>(
  name: string,
  instantiate: (memory: WebAssembly.Memory) => Promise<T>,
  use: (instance: T, memory: WebAssembly.Memory) => R | Promise<R>,
): Promise<R> {
  const memory = takeMemory(minimumBytes.get(name) ?? 0);
  inUse++;
  try {
    const instance = await instantiateOver(name, memory, instantiate);
    return await use(instance, memory);
  } finally {
    inUse--;
    giveBack(memory);
  }
}

/** Whether `module` imports its memory (then its calls run over pooled memories). */
export function importsMemory(module: WebAssembly.Module): boolean {
  return WebAssembly.Module.imports(module).some((entry) => entry.kind === 'memory');
}

/** The largest free memory grown to at least `bytes`, or a new one. */
function takeMemory(bytes: number): WebAssembly.Memory {
  const memory = free.pop() ?? new WebAssembly.Memory({ initial: NEW_MEMORY_BYTES / PAGE });
  growTo(memory, bytes);
  return memory;
}

async function instantiateOver<T>(
  name: string,
  memory: WebAssembly.Memory,
  instantiate: (memory: WebAssembly.Memory) => Promise<T>,
): Promise<T> {
  for (let grown = false; ; grown = true) {
    try {
      const instance = await instantiate(memory);
      if (grown) minimumBytes.set(name, memory.buffer.byteLength);
      return instance;
    } catch (error) {
      // Too small for the module's import (nothing else a LinkError can be here: the other imports are
      // the host's functions): doubled and tried again (a few tries, once per module).
      const size = memory.buffer.byteLength;
      if (!(error instanceof WebAssembly.LinkError) || size >= MAX_KEPT_MEMORY_BYTES) throw error;
      growTo(memory, 2 * size);
    }
  }
}

function growTo(memory: WebAssembly.Memory, bytes: number): void {
  const pages = Math.ceil(bytes / PAGE) - memory.buffer.byteLength / PAGE;
  if (pages > 0) memory.grow(pages);
}

/** Zeroes `memory` and keeps it, unless it grew too large or enough are free already. */
function giveBack(memory: WebAssembly.Memory): void {
  const size = memory.buffer.byteLength;
  if (size > MAX_KEPT_MEMORY_BYTES || free.length >= MAX_FREE_MEMORIES) return;
  new Uint8Array(memory.buffer).fill(0);
  const at = free.findIndex((other) => other.buffer.byteLength > size);
  free.splice(at < 0 ? free.length : at, 0, memory);
}

/** How many pooled memories are free and in use, and the free ones' bytes (for tests and diagnostics). */
export function pooledMemories(): { free: number; inUse: number; freeBytes: number } {
  return { free: free.length, inUse, freeBytes: free.reduce((sum, memory) => sum + memory.buffer.byteLength, 0) };
}

/** Drops every free memory (with the idle instances, when the modules change: runtime/wasm.ts). */
export function dropPooledMemories(): void {
  free.length = 0;
  minimumBytes.clear();
}
