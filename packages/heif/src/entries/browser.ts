// Browser entry: heif.wasm at a URL relative to this bundle, fetched by @glimpse/media's browser entry on the first HEIC.
import { WASM_URLS } from 'glimpse:wasm-urls';
import { registerHeif } from '../register-heif.js';

const path = WASM_URLS['heif'];
if (path === undefined) throw new Error('the browser bundle of @glimpse/heif was built without heif.wasm');
registerHeif(new URL(path));

export * from '../index.js';
