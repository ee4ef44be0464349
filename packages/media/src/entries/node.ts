// Node entry: reads each codec's .wasm from node_modules and compiles it. The only Node-specific code.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { setWasmLoader } from '../runtime/wasm.js';
import { WASM_FILES } from '../runtime/wasm-files.js';

const require = createRequire(import.meta.url);

setWasmLoader(async (name) => WebAssembly.compile(await readFile(require.resolve(WASM_FILES[name]))));

export * from '../index.js';
