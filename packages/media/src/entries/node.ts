// Node entry: reads each codec's .wasm from node_modules and compiles it. The only Node-specific code.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { setWasmRuntime } from '../runtime/wasm.js';
import { WASM_FILES } from '../runtime/wasm-files.js';

const require = createRequire(import.meta.url);

setWasmRuntime({
  locate: (name) => pathToFileURL(require.resolve(WASM_FILES[name])),
  compile: async (url) => WebAssembly.compile(await readFile(url)),
});

export * from '../index.js';
