// @glimpse/heif: importing it once makes @glimpse/media's `process` decode HEIC and HEIF photos. Each
// runtime has its own entry (entries/*.ts) that finds the WASM module and registers the decoder.
export { HEIF_DECODER_NAME, type HeifOptions, registerHeif } from './register-heif.js';
