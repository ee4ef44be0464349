// glimpse's own WebP decoder (wasm/webp/decode.c over libwebp): decodes a still WebP, optionally
// rescaling while it decodes (a 12 MP WebP bound for 2000 px never exists at full size). Each call runs
// in a fresh instance, so the decoder's memory is released when the call ends.
import { MediaError } from '../errors.js';
import type { Raster } from '../types.js';
import { wasmModule } from '../wasm.js';

interface WebpDecoderExports {
  memory: WebAssembly.Memory;
  _initialize(): void;
  alloc(bytes: number): number;
  decode_rgba(data: number, size: number, width: number, height: number, info: number): number;
}

const FUNCTIONS = ['_initialize', 'alloc', 'decode_rgba'] as const;

function isWebpDecoderExports(exports: WebAssembly.Exports): exports is WebAssembly.Exports & WebpDecoderExports {
  return exports['memory'] instanceof WebAssembly.Memory && FUNCTIONS.every((name) => typeof exports[name] === 'function');
}

/** libwebp's VP8StatusCode values, as the decoder reports them. */
const STATUS: Readonly<Record<number, string>> = {
  1: 'out of memory',
  2: 'invalid parameter',
  3: 'bitstream error',
  4: 'unsupported feature',
  5: 'suspended',
  6: 'user abort',
  7: 'not enough data',
};

export interface DecodedWebp {
  raster: Raster;
  /** The bitstream carries alpha (pixels may still all be opaque). */
  alphaChannel: boolean;
}

/**
 * Decodes a still WebP (lossy or lossless, with or without alpha) to straight-alpha RGBA8. With `size`,
 * libwebp rescales to exactly that size while decoding (area averaging with premultiplied alpha).
 */
export async function decodeWebpStill(bytes: Uint8Array, size?: { width: number; height: number }): Promise<DecodedWebp> {
  const { exports } = await WebAssembly.instantiate(await wasmModule('webp_decoder'), {});
  if (!isWebpDecoderExports(exports)) throw new MediaError('E_WASM_UNAVAILABLE', 'The webp_decoder WASM module lacks the expected exports: rebuild it with scripts/build-wasm.sh.');
  const codec = exports;
  codec._initialize();
  const data = codec.alloc(bytes.byteLength);
  const info = codec.alloc(16);
  if (data === 0 || info === 0) throw new MediaError('E_TOO_LARGE', `The WebP decoder could not get ${bytes.byteLength} bytes of memory.`);
  new Uint8Array(codec.memory.buffer, data, bytes.byteLength).set(bytes);
  let pixels: number;
  try {
    pixels = codec.decode_rgba(data, bytes.byteLength, size?.width ?? 0, size?.height ?? 0, info);
  } catch (cause) {
    if (!(cause instanceof WebAssembly.RuntimeError)) throw cause;
    throw new MediaError('E_CORRUPT', `The WebP data could not be decoded (${cause.message}). The file is truncated or damaged: re-export it.`, { format: 'WebP' }, { cause });
  }
  const [width = 0, height = 0, alpha = 0, status = 0] = new Uint32Array(codec.memory.buffer, info, 4);
  if (pixels === 0) {
    const reason = STATUS[status] ?? `status ${status}`;
    if (status === 1) throw new MediaError('E_TOO_LARGE', 'The WebP decoder ran out of memory. Lower maxInputPixels or send a smaller image.');
    throw new MediaError('E_CORRUPT', `The WebP data could not be decoded (${reason}). The file is truncated or damaged: re-export it.`, { format: 'WebP', status });
  }
  return { raster: { data: new Uint8Array(codec.memory.buffer.slice(pixels, pixels + width * height * 4)), width, height }, alphaChannel: alpha !== 0 };
}
