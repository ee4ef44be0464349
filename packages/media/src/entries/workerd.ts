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
 * Largest input, in pixels, that the default Workers settings decode (3000×2000). Measured in workerd
 * (npm run test:workers): a 6 MP JPEG made its codecs create 66 MB of WASM memory, a 4 MP PNG 37 MB,
 * and the decoded pixels are copied into JS as well (4 bytes each, more than once). See README "Runtimes".
 */
export const WORKERS_MAX_INPUT_PIXELS = 6_000_000;

/** `process` with the Workers pixel cap as the default; an explicit `maxInputPixels` overrides it. */
export async function process(bytes: Uint8Array, options: ProcessOptions = {}): Promise<ProcessResult> {
  const maxInputPixels = options.maxInputPixels ?? WORKERS_MAX_INPUT_PIXELS;
  try {
    return await processAnywhere(bytes, { ...options, maxInputPixels });
  } catch (error) {
    if (options.maxInputPixels === undefined && isMediaError(error) && error.code === 'E_TOO_MANY_PIXELS') {
      const { width, height } = error.details;
      const declared = typeof width === 'number' && typeof height === 'number' ? `The image declares ${width}×${height} pixels. ` : '';
      throw new MediaError(
        'E_TOO_MANY_PIXELS',
        `${declared}A Cloudflare Worker has 128 MB of memory, so the Workers entry decodes at most ${(maxInputPixels / 1e6).toFixed(1)} MP by default: downscale the image before it reaches the Worker, or pass maxInputPixels to raise the cap at the risk of running out of memory.`,
        { ...error.details, maxInputPixels },
        { cause: error },
      );
    }
    throw error;
  }
}

export * from '../index.js';
