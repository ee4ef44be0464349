// For tests that import the media core's modules directly, not through a runtime entry: the core's WASM
// modules come from node_modules as the Node entry reads them (packages/media/src/entries/node.ts).
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { beforeAll } from 'vitest';
import { setWasmRuntime } from '../../packages/media/src/runtime/wasm.js';
import { WASM_FILES } from '../../packages/media/src/runtime/wasm-files.js';

const require = createRequire(import.meta.url);

/** Registers the Node entry's way of reading WASM before the file's tests run. */
export function useNodeWasm(): void {
  beforeAll(() =>
    setWasmRuntime({
      locate: (name) => pathToFileURL(require.resolve(WASM_FILES[name])),
      compile: async (url) => WebAssembly.compile(await readFile(url)),
    }),
  );
}
