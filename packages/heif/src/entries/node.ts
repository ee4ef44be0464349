// Node entry: heif.wasm in the installed package, read by @glimpse/media's Node entry on the first HEIC.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { registerHeif } from '../register-heif.js';

registerHeif(pathToFileURL(createRequire(import.meta.url).resolve('@glimpse/heif/wasm/heif.wasm')));

export * from '../index.js';
