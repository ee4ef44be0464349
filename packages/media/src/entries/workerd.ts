// Cloudflare Workers entry. workerd forbids compiling WASM from bytes, so every codec arrives as a
// `.wasm` module import that the platform compiles at upload; the loader only hands them over.
// A Worker has 128 MB of memory, so this entry also lowers the default input-pixel cap.
import { WASM_MODULES } from 'glimpse:wasm-modules';
import { MediaError, isMediaError } from '../errors.js';
import { process as processAnywhere } from '../process.js';
import type { ProcessOptions, ProcessResult } from '../types.js';
import { setWasmLoader } from '../wasm.js';

setWasmLoader(async (name) => {
  const module = WASM_MODULES[name];
  if (module === undefined) throw new Error(`the Workers bundle was built without ${name}.wasm`);
  return module;
});

/**
 * Largest input, in pixels, that the default Workers settings decode. Decoding holds the RGBA pixels
 * (4 bytes each) in the codec's WASM memory and again in JS; see README "Runtimes" for the measured peaks.
 */
export const WORKERS_MAX_INPUT_PIXELS = 12_000_000;

/** `process` with the Workers pixel cap as the default; an explicit `maxInputPixels` overrides it. */
export async function process(bytes: Uint8Array, options: ProcessOptions = {}): Promise<ProcessResult> {
  const maxInputPixels = options.maxInputPixels ?? WORKERS_MAX_INPUT_PIXELS;
  try {
    return await processAnywhere(bytes, { ...options, maxInputPixels });
  } catch (error) {
    if (options.maxInputPixels === undefined && isMediaError(error) && error.code === 'E_TOO_MANY_PIXELS') {
      throw new MediaError(
        'E_TOO_MANY_PIXELS',
        `${error.message} A Cloudflare Worker has 128 MB of memory, so the Workers entry decodes at most ${maxInputPixels} pixels by default: downscale the image before it reaches the Worker, or pass maxInputPixels to raise the cap at the risk of running out of memory.`,
        { ...error.details, maxInputPixels },
        { cause: error },
      );
    }
    throw error;
  }
}

export * from '../index.js';
