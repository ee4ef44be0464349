// The WASM seam as a decoder package uses it: a module registered by name comes through the runtime entry's
// own way of reading a URL, once, or as the module or function it was registered as.
import { describe, expect, it } from 'vitest';
import { MediaError } from '../errors.js';
import { failsWith } from '../../../../test/support/typed-errors.js';
import { registerWasmModule, setWasmLoader, setWasmRuntime, type WasmModuleName, wasmModule } from './wasm.js';

/** The smallest valid module: the magic number and version. */
const EMPTY_MODULE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]);

/** A runtime that records what it was asked to read, and compiles the empty module for any URL. */
function recordingRuntime() {
  const read: string[] = [];
  const located: WasmModuleName[] = [];
  setWasmRuntime({
    locate(name) {
      located.push(name);
      return new URL(`https://assets.example/${name}.wasm`);
    },
    async compile(url) {
      read.push(url.href);
      return WebAssembly.compile(EMPTY_MODULE);
    },
  });
  return { read, located };
}

describe('the WASM seam', () => {
  it("compiles a package's module from its URL through the runtime entry, once, as it does the core's own", async () => {
    const { read, located } = recordingRuntime();
    registerWasmModule('heif', new URL('https://cdn.example/heif.wasm'));
    const [first, again] = [await wasmModule('heif'), await wasmModule('heif')];
    expect(first).toBeInstanceOf(WebAssembly.Module);
    expect(again).toBe(first);
    await wasmModule('png');
    expect(read).toEqual(['https://cdn.example/heif.wasm', 'https://assets.example/png.wasm']);
    expect(located).toEqual(['png']);
  });

  it('hands over a registered module as it is, and calls a registered function once', async () => {
    const { read } = recordingRuntime();
    const module = await WebAssembly.compile(EMPTY_MODULE);
    registerWasmModule('compiled', module);
    expect(await wasmModule('compiled')).toBe(module);
    let calls = 0;
    registerWasmModule('obtained', async () => {
      calls++;
      return module;
    });
    await wasmModule('obtained');
    await wasmModule('obtained');
    expect(calls).toBe(1);
    expect(read).toEqual([]);
  });

  it("keeps packages' modules on the runtime entry when the core's own come from a loader of the caller's", async () => {
    const { read } = recordingRuntime();
    const module = await WebAssembly.compile(EMPTY_MODULE);
    setWasmLoader(async () => module);
    registerWasmModule('heif', new URL('https://cdn.example/heif.wasm'));
    expect(await wasmModule('png')).toBe(module);
    await wasmModule('heif');
    expect(read).toEqual(['https://cdn.example/heif.wasm']);
  });

  it('says E_WASM_UNAVAILABLE for a name nothing registered, and when a source fails, and tries again after', async () => {
    recordingRuntime();
    const unknown = await failsWith(wasmModule('nonesuch'), MediaError, 'E_WASM_UNAVAILABLE');
    expect(unknown.details).toEqual({ module: 'nonesuch' });
    let fail = true;
    registerWasmModule('flaky', async () => {
      if (fail) throw new Error('offline');
      return WebAssembly.compile(EMPTY_MODULE);
    });
    const error = await failsWith(wasmModule('flaky'), MediaError, 'E_WASM_UNAVAILABLE');
    expect(error.message).toBe('The flaky WASM module could not be loaded: Error: offline');
    fail = false;
    expect(await wasmModule('flaky')).toBeInstanceOf(WebAssembly.Module);
  });
});
