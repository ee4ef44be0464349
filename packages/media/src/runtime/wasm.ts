import { MediaError } from '../errors.js';
import { dropIdleInstances } from './kernel-pool.js';
import { dropPooledMemories } from './memory-pool.js';
import { WASM_FILES, type WasmModuleName } from './wasm-files.js';

export type { WasmModuleName } from './wasm-files.js';

/**
 * The WASM seam. The core never fetches or compiles WASM: each runtime entry (Node, Deno, browser,
 * Workers) says where a module is and how that runtime turns it into a compiled `WebAssembly.Module`.
 * Codecs ask for their module lazily, on first need, so a JPEG job never loads the WebP encoder. A decoder
 * package (@glimpse/heif) registers its own module's source and gets it through the same runtime.
 */
export type WasmLoader = (name: WasmModuleName) => Promise<WebAssembly.Module>;

/**
 * Where a module is, in the form the runtime's entry reads: a URL (`file:` in Node and Deno, the bundle's
 * asset in a browser), the compiled module itself (Workers, which compile at upload), or a function that
 * obtains it.
 */
export type WasmSource = URL | WebAssembly.Module | (() => Promise<WebAssembly.Module>);

/** A runtime entry's part of the seam: where the core's own modules are, and how a source becomes a module. */
export interface WasmRuntime {
  locate(name: WasmModuleName): WasmSource;
  /** Reads or fetches a URL and compiles it; a module or a function is handled before this is asked. */
  compile(url: URL): Promise<WebAssembly.Module>;
}

let runtime: WasmRuntime | undefined;
let loader: WasmLoader | undefined;
const packaged = new Map<string, WasmSource>();
const compiled = new Map<string, Promise<WebAssembly.Module>>();

/** Called once by a runtime entry. Replacing it forgets modules compiled before (and instances kept of them). */
export function setWasmRuntime(next: WasmRuntime): void {
  runtime = next;
  loader = (name) => fromSource(next.locate(name), next);
  compiled.clear();
  dropIdleInstances();
  dropPooledMemories();
}

/** Replaces how the core's own modules are obtained (the runtime entry's way, by default). Forgets modules compiled before. */
export function setWasmLoader(next: WasmLoader): void {
  loader = next;
  compiled.clear();
  dropIdleInstances();
  dropPooledMemories();
}

/**
 * Makes module `name` of a decoder package available through the runtime entry in use: `source` says where
 * it is (see `WasmSource`). Registering a name again replaces its source.
 */
export function registerWasmModule(name: string, source: WasmSource): void {
  packaged.set(name, source);
  compiled.delete(name);
}

/** The compiled module `name`, the core's own or a registered package's, obtained once per loader. */
export function wasmModule(name: string): Promise<WebAssembly.Module> {
  let pending = compiled.get(name);
  if (!pending) {
    pending = obtain(name).catch((cause: unknown) => {
      compiled.delete(name);
      if (cause instanceof MediaError) throw cause;
      throw new MediaError(
        'E_WASM_UNAVAILABLE',
        `The ${name} WASM module could not be loaded: ${String(cause)}`,
        { module: name },
        { cause },
      );
    });
    compiled.set(name, pending);
  }
  return pending;
}

async function obtain(name: string): Promise<WebAssembly.Module> {
  const source = packaged.get(name);
  if (source !== undefined) {
    if (source instanceof URL && !runtime) throw noRuntime(name);
    return fromSource(source, runtime);
  }
  if (!isWasmModuleName(name)) {
    throw new MediaError('E_WASM_UNAVAILABLE', `No WASM module named ${name} is registered.`, { module: name });
  }
  if (!loader) throw noRuntime(name);
  return loader(name);
}

function fromSource(source: WasmSource, through: WasmRuntime | undefined): Promise<WebAssembly.Module> {
  if (source instanceof WebAssembly.Module) return Promise.resolve(source);
  if (typeof source === 'function') return source();
  if (!through) throw new Error(`no runtime entry to read ${source.href}`);
  return through.compile(source);
}

function isWasmModuleName(name: string): name is WasmModuleName {
  return Object.hasOwn(WASM_FILES, name);
}

function noRuntime(name: string): MediaError {
  return new MediaError(
    'E_WASM_UNAVAILABLE',
    `No WASM loader is registered, so the ${name} codec cannot start. Import @glimpse/media through a runtime entry (node, deno, browser, workerd) or call setWasmLoader().`,
    { module: name },
  );
}

// A minimal module using one v128 instruction: validates only where WASM SIMD is supported.
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11,
]);

/** Whether this runtime runs WASM SIMD (decides which WebP encoder build to use). */
export function wasmSimdSupported(): boolean {
  return WebAssembly.validate(SIMD_PROBE);
}
