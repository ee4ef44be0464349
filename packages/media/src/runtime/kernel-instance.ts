// What glimpse's own C kernels (wasm/jpeg, wasm/png, wasm/tiff, wasm/avif, the WebP encoder) share on the
// host side: a fresh instance per call over a memory of the pool they share (memory-pool.ts: they are
// linked to import their memory, and a dropped memory is not released soon in every runtime), the
// `env.fail` import through which the C libraries report a fatal error, the `env.read_input` and
// `env.read_at` imports through which a kernel may pull its input a buffer at a time (in order, or from
// any offset) instead of holding all of it, and copying bytes into the instance.
import { MediaError } from '../errors.js';
import { wasmModule, type WasmModuleName } from './wasm.js';
import { importsMemory, NEW_MEMORY_BYTES, withPooledMemory } from './memory-pool.js';
import { wasiStandIns } from './wasi-stand-ins.js';

/** Every kernel exports its memory, wasi-libc's start-up and an allocator. */
export interface KernelExports {
  memory: WebAssembly.Memory;
  _initialize(): void;
  alloc(bytes: number): number;
}

/**
 * A fatal error a C library reported through `env.fail`, carrying its message; `tooComplex` when it came
 * through `env.fail_too_complex` instead: the input is readable but built to take unbounded work.
 */
export class KernelFailure extends Error {
  constructor(
    message: string,
    readonly tooComplex = false,
  ) {
    super(message);
  }
}

/** A started instance and what its imports read the current call's input from. */
interface KernelInstance<T extends KernelExports> {
  exports: T;
  input: { bytes: Uint8Array; read: number };
}

const NO_INPUT = new Uint8Array(0);

/**
 * Runs `use` with a fresh, started instance of kernel `name` whose exports include `functions`, over a
 * memory of the pool, which goes back (zeroed) however `use` ends (memory-pool.ts). WASI calls the
 * libraries link but never reach are stubs that fail loudly rather than touch the host. `input` is what
 * the kernel's `read_input(out, capacity)` hands out, in order, and `read_at(out, offset, capacity)` from
 * any offset (both return how many bytes they copied, 0 at the end); it is let go when the call ends.
 */
export async function withKernel<T extends KernelExports, R>(
  name: WasmModuleName,
  functions: readonly (keyof T & string)[],
  input: Uint8Array,
  use: (kernel: T) => R | Promise<R>,
): Promise<R> {
  const module = await wasmModule(name);
  if (!importsMemory(module)) throw unavailable(name);
  return withPooledMemory(
    name,
    (memory) => startKernel<T>(name, functions, module, memory),
    (instance) => {
      instance.input.bytes = input;
      return use(instance.exports);
    },
  );
}

/** A fresh, started instance of kernel `name` (see withKernel), never reused: for callers that keep it across calls. */
export async function instantiateKernel<T extends KernelExports>(
  name: WasmModuleName,
  functions: readonly (keyof T & string)[],
  input: Uint8Array = NO_INPUT,
): Promise<T> {
  const module = await wasmModule(name);
  if (!importsMemory(module)) throw unavailable(name);
  const memory = new WebAssembly.Memory({ initial: NEW_MEMORY_BYTES / 65536 }); // its own, not the pool's
  const instance = await startKernel<T>(name, functions, module, memory);
  instance.input.bytes = input;
  return instance.exports;
}

/**
 * Instantiates and starts kernel `name` over `memory`, which it imports (its exports are given that memory
 * as `memory`, as an exported one would be).
 */
async function startKernel<T extends KernelExports>(
  name: WasmModuleName,
  functions: readonly (keyof T & string)[],
  module: WebAssembly.Module,
  memory: WebAssembly.Memory,
): Promise<KernelInstance<T>> {
  const input = { bytes: NO_INPUT, read: 0 };
  const imports = {
    env: {
      memory,
      fail: (message: number) => {
        throw new KernelFailure(readCString(memory, message));
      },
      fail_too_complex: (message: number) => {
        throw new KernelFailure(readCString(memory, message), true);
      },
      read_input: (out: number, capacity: number) => {
        const part = input.bytes.subarray(input.read, input.read + capacity);
        new Uint8Array(memory.buffer, out, part.byteLength).set(part);
        input.read += part.byteLength;
        return part.byteLength;
      },
      read_at: (out: number, offset: number, capacity: number) => {
        const start = offset >>> 0;
        const part = input.bytes.subarray(start, start + (capacity >>> 0));
        new Uint8Array(memory.buffer, out, part.byteLength).set(part);
        return part.byteLength;
      },
    },
    wasi_snapshot_preview1: wasiStandIns(
      () => memory,
      () => new KernelFailure(`the ${name} kernel made a system call it is not given`),
    ),
  };
  const instance = await WebAssembly.instantiate(module, imports);
  const exports = { ...instance.exports, memory };
  if (!hasExports<T>(exports, functions)) throw unavailable(name);
  exports._initialize();
  return { exports, input };
}

/** A kernel that is not the module its adapter expects (no memory import, or exports missing). */
function unavailable(name: WasmModuleName): MediaError {
  return new MediaError(
    'E_WASM_UNAVAILABLE',
    `The ${name} WASM module lacks the expected imports or exports: rebuild it with scripts/build-wasm.sh.`,
  );
}

function hasExports<T extends KernelExports>(
  exports: Record<string, unknown>,
  functions: readonly (keyof T & string)[],
): exports is Record<string, unknown> & T {
  const required = ['_initialize', 'alloc', ...functions];
  return exports['memory'] instanceof WebAssembly.Memory && required.every((fn) => typeof exports[fn] === 'function');
}

function readCString(memory: WebAssembly.Memory, pointer: number): string {
  const bytes = new Uint8Array(memory.buffer);
  let end = pointer;
  while (end < bytes.length && bytes[end] !== 0) end++;
  return new TextDecoder().decode(bytes.subarray(pointer, end));
}

/** What a strict read of a whole file found: its library's error (unreadable) or first warning (read, not cleanly). */
export type StrictReadFinding = { error: string } | { warning: string };

/** How a kernel's `verify` gets the file, and what it may leave out. */
export interface StrictReadOptions {
  /**
   * The kernel pulls the file through `read_input`, a buffer at a time (`verify(0, size, flags)`), instead of
   * being given a copy of all of it: its memory then never holds the file.
   */
  streamed?: boolean;
  /** The kernel's own flags, `verify`'s third argument (png.wasm: 1 = every chunk CRC already checked). */
  flags?: number;
}

/**
 * Runs kernel `name`'s `verify` export on `bytes`: the library reads the whole file as its strictest
 * command-line tool does (pngcheck, `djpeg -strict`), keeping no pixels. Resolves to nothing when the
 * read was clean. Running out of memory is E_TOO_LARGE, as for a decode.
 */
export async function strictRead(
  name: 'png' | 'jpeg',
  bytes: Uint8Array,
  options: StrictReadOptions = {},
): Promise<StrictReadFinding | undefined> {
  const codec = name.toUpperCase();
  const { streamed = false, flags = 0 } = options;
  try {
    return await withKernel<
      KernelExports & { verify(data: number, size: number, flags: number): number },
      StrictReadFinding | undefined
    >(name, ['verify'], streamed ? bytes : NO_INPUT, (kernel) => {
      const data = streamed ? 0 : copyIn(kernel, bytes, codec);
      const warning = kernel.verify(data, bytes.byteLength, flags);
      return warning === 0 ? undefined : { warning: readCString(kernel.memory, warning) };
    });
  } catch (cause) {
    if (!(cause instanceof KernelFailure || cause instanceof WebAssembly.RuntimeError)) throw cause;
    if (cause instanceof KernelFailure && cause.tooComplex) throw kernelTooComplex(codec, cause);
    if (/memory/i.test(cause.message)) throw kernelOutOfMemory(codec);
    return { error: cause.message };
  }
}

/** Copies `bytes` into the instance and returns where they are. */
export function copyIn(kernel: KernelExports, bytes: Uint8Array, codec: string): number {
  const pointer = kernel.alloc(bytes.byteLength);
  if (pointer === 0) throw kernelOutOfMemory(codec, bytes.byteLength);
  new Uint8Array(kernel.memory.buffer, pointer, bytes.byteLength).set(bytes);
  return pointer;
}

/**
 * A file its codec stopped reading because it is built to take unbounded work (wasm/jpeg: over 100 scans,
 * or scans that walk the image's blocks over 32 times): E_TOO_COMPLEX, not damage, since strict readers
 * without such a bound read it.
 */
export function kernelTooComplex(codec: string, cause: KernelFailure): MediaError {
  return new MediaError(
    'E_TOO_COMPLEX',
    `The ${codec} file is built to be slow to decode: ${cause.message}, where libjpeg's progressive mode writes 10 scans (18 for CMYK) that read each block about 5 times (a scan reads every block of the components it codes, however little it holds). If it is trusted, re-save it as a baseline ${codec} (\`jpegtran -optimize in.jpg > out.jpg\` writes one) and send that.`,
    { format: codec },
    { cause },
  );
}

/** Running out of WASM memory means the image is too big for this runtime, not that it is damaged. */
export function kernelOutOfMemory(codec: string, bytes?: number): MediaError {
  const amount = bytes === undefined ? 'enough' : `${bytes} bytes of`;
  return new MediaError(
    'E_TOO_LARGE',
    `The ${codec} codec could not get ${amount} memory. Lower maxInputPixels or send a smaller image.`,
  );
}
