// Node entry: reads heif.wasm from the package and compiles it on the first HEIC.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { registerHeif } from '../register-heif.js';

const require = createRequire(import.meta.url);
registerHeif(async () => {
  const path = require.resolve('@glimpse/heif/wasm/heif.wasm'); // throws when @glimpse/heif is not installed
  return WebAssembly.compile(await readFile(path));
});

export * from '../index.js';
