// One pool of WASM memories for the modules linked to import their memory (`-Wl,--import-memory`):
// wasm/jpeg, wasm/png, wasm/tiff, wasm/avif, wasm/heif, the WebP decoder and encoder. A dropped memory is
// given back only when V8 collects it, and workerd does not collect them while requests keep coming (24
// requests that each made and dropped a 20 MB memory grew it by 481 MB), so memories are kept and reused.
// Kept per module (kernel-pool.ts), an isolate that decodes HEIC, AVIF and TIFF held each format's own (2 ×
// HEIC, AVIF and TIFF at once, then rounds of every format: +145 MB). Shared, a call takes a free memory
// whatever it last served (the smallest that holds what its module grew one to before, else the largest),
// instantiates its module over it (the compiled module is cached; data segments are written again), and
// gives it back zeroed: the isolate holds as many memories as calls of these modules ever ran at once,
// each as large as the largest call it served. With PNG and the WebP decoder in it too (their own kept
// instances held 5.0 and 1.4 MB beside it), the load suite's mixed-format case holds 41.6 MB of WASM
// memory instead of 48.1 and its 20 mixed 10.9 instead of 14.4. The resize kernel keeps instances of its
// own (kernel-pool.ts): lent here, every job held two memories at once (its resize kernel's, made before
// decoding starts, and its decoder's), and a decoder that found only a resize kernel's free grew a second
// large one (mixed-format: 46.6–67.3 MB held).
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
 * (avif.wasm 1.4 MiB, heif.wasm 1.1, tiff.wasm 0.4, png.wasm 0.4, the WebP decoder 0.3),
 * so a new memory is what a new instance would have had.
 */
export const NEW_MEMORY_BYTES = 2 * 2 ** 20;

/** Free memories, smallest first. */
const free: WebAssembly.Memory[] = [];

/**
 * The least memory a module's import asks for, where that is more than NEW_MEMORY_BYTES: learnt when an
 * instantiation failed for it (the JS API does not say a module's limits: a memory smaller than the import
 * asks for is a LinkError, after which it is grown and tried again).
 */
const minimumBytes = new Map<string, number>();

/**
 * The largest a call of each module grew its memory to (what its next call is given a memory for), 0 for
 * a module whose calls never grew one; a module not in it has not run yet.
 */
const needs = new Map<string, number>();

/**
 * Modules whose last call ended within a new memory (NEW_MEMORY_BYTES: PNG's strict read of a passthrough,
 * a small encode): they take only a memory no call grew, a new one when none is free, so that none of them
 * holds a memory a decoder grew while that decoder, running beside it, makes and grows another.
 */
const small = new Set<string>();

/** Memories in use by a call now, and how many were ever made and dropped (for the state and tests). */
let inUse = 0;
let made = 0;
let dropped = 0;

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
  const memory = takeMemory(name);
  const given = memory.buffer.byteLength;
  inUse++;
  try {
    const instance = await instantiateOver(name, memory, instantiate);
    return await use(instance, memory);
  } finally {
    inUse--;
    const size = memory.buffer.byteLength;
    needs.set(name, Math.max(needs.get(name) ?? 0, size > given ? size : 0));
    if (size <= NEW_MEMORY_BYTES) small.add(name);
    else if (size > given) small.delete(name);
    giveBack(memory);
  }
}

const importing = new WeakMap<WebAssembly.Module, boolean>();

/** Whether `module` imports its memory (then its calls run over pooled memories); read once per module. */
export function importsMemory(module: WebAssembly.Module): boolean {
  let imports = importing.get(module);
  if (imports === undefined) {
    imports = WebAssembly.Module.imports(module).some((entry) => entry.kind === 'memory');
    importing.set(module, imports);
  }
  return imports;
}

/**
 * The smallest free memory that holds what a call of `name` grew one to before (so a small module's call
 * does not take the memory a large one will need next), else the largest (for a module's first call too:
 * it may be a decoder's); a new one when none is free. A module that ran within a new memory takes one no
 * call grew, else a new one.
 */
function takeMemory(name: string): WebAssembly.Memory {
  const need = Math.max(minimumBytes.get(name) ?? 0, needs.get(name) ?? 0);
  let at: number;
  if (small.has(name)) at = (free[0]?.buffer.byteLength ?? Infinity) <= NEW_MEMORY_BYTES ? 0 : -1;
  else {
    at = needs.has(name) ? free.findIndex((memory) => memory.buffer.byteLength >= need) : -1;
    if (at < 0) at = free.length - 1;
  }
  if (at < 0) made++;
  // A small module's new memory starts at a page: its import's minimum is learnt (instantiateOver) and it
  // grows what it needs, as its own memory would.
  const initial = at < 0 && small.has(name) ? 1 : NEW_MEMORY_BYTES / PAGE;
  const memory = at < 0 ? new WebAssembly.Memory({ initial }) : free.splice(at, 1)[0]!;
  growTo(memory, minimumBytes.get(name) ?? 0);
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
  if (size > MAX_KEPT_MEMORY_BYTES || free.length >= MAX_FREE_MEMORIES) return void dropped++;
  new Uint8Array(memory.buffer).fill(0);
  const at = free.findIndex((other) => other.buffer.byteLength > size);
  free.splice(at < 0 ? free.length : at, 0, memory);
}

/** How many pooled memories are free and in use, the free ones' bytes, and how many were made and dropped. */
export function pooledMemories(): { free: number; inUse: number; freeBytes: number; made: number; dropped: number } {
  const freeBytes = free.reduce((sum, memory) => sum + memory.buffer.byteLength, 0);
  return { free: free.length, inUse, freeBytes, made, dropped };
}

/** Drops every free memory (with the idle instances, when the modules change: runtime/wasm.ts). */
export function dropPooledMemories(): void {
  free.length = 0;
  minimumBytes.clear();
  needs.clear();
  small.clear();
  made = 0;
  dropped = 0;
}
