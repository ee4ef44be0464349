// glimpse's own JPEG codec (wasm/jpeg/codec.c over libjpeg-turbo): decodes at M/8 scale in the DCT
// domain and encodes baseline Huffman-optimised JPEG. Each call runs in a fresh instance, so a corrupt
// file cannot leave state behind and the decoder's memory is released when the call ends.
import { MediaError } from '../errors.js';
import type { Raster } from '../types.js';
import { wasmModule } from '../wasm.js';

interface JpegExports {
  memory: WebAssembly.Memory;
  _initialize(): void;
  alloc(bytes: number): number;
  decode_rgba(data: number, size: number, scaleEighths: number, info: number): number;
  encode_rgba(rgba: number, width: number, height: number, quality: number, info: number): number;
}

const FUNCTIONS = ['_initialize', 'alloc', 'decode_rgba', 'encode_rgba'] as const;

function isJpegExports(exports: WebAssembly.Exports): exports is WebAssembly.Exports & JpegExports {
  return exports['memory'] instanceof WebAssembly.Memory && FUNCTIONS.every((name) => typeof exports[name] === 'function');
}

/** libjpeg-turbo reports a fatal error through `fail`; the codec never reaches the WASI calls it links. */
class JpegFailure extends Error {}

async function instantiate(): Promise<JpegExports> {
  let memory: WebAssembly.Memory | undefined;
  const unavailable = () => {
    throw new JpegFailure('the JPEG codec made a system call it is not given');
  };
  const imports = {
    env: {
      fail: (message: number) => {
        throw new JpegFailure(memory ? readCString(memory, message) : 'libjpeg error');
      },
    },
    wasi_snapshot_preview1: { fd_close: unavailable, fd_seek: unavailable, fd_write: unavailable, proc_exit: unavailable },
  };
  const { exports } = await WebAssembly.instantiate(await wasmModule('jpeg'), imports);
  if (!isJpegExports(exports)) throw new MediaError('E_WASM_UNAVAILABLE', 'The jpeg WASM module lacks the expected exports: rebuild it with scripts/build-wasm.sh.');
  memory = exports.memory;
  exports._initialize();
  return exports;
}

function readCString(memory: WebAssembly.Memory, pointer: number): string {
  const bytes = new Uint8Array(memory.buffer);
  let end = pointer;
  while (end < bytes.length && bytes[end] !== 0) end++;
  return new TextDecoder().decode(bytes.subarray(pointer, end));
}

function put(codec: JpegExports, bytes: Uint8Array): number {
  const pointer = codec.alloc(bytes.byteLength);
  if (pointer === 0) throw outOfMemory(bytes.byteLength);
  new Uint8Array(codec.memory.buffer, pointer, bytes.byteLength).set(bytes);
  return pointer;
}

function outOfMemory(bytes?: number): MediaError {
  const amount = bytes === undefined ? 'enough' : `${bytes} bytes of`;
  return new MediaError('E_TOO_LARGE', `The JPEG codec could not get ${amount} memory. Lower maxInputPixels or send a smaller image.`);
}

/**
 * The smallest libjpeg scale, in eighths, whose output still covers `target` on both axes, so the
 * final resize only ever shrinks. Decoding at 4/8 costs about half the full decode; the scaled inverse
 * DCT drops frequencies above the new Nyquist limit, so it does not alias.
 */
export function jpegScaleEighths(width: number, height: number, targetWidth: number, targetHeight: number): number {
  for (let eighths = 1; eighths < 8; eighths++) {
    if (Math.ceil((width * eighths) / 8) >= targetWidth && Math.ceil((height * eighths) / 8) >= targetHeight) return eighths;
  }
  return 8;
}

/** Decodes to RGBA8 at `scaleEighths`/8 of the stored size (EXIF orientation not applied). */
export async function decodeJpegScaled(bytes: Uint8Array, scaleEighths = 8): Promise<Raster> {
  const codec = await instantiate();
  try {
    const data = put(codec, bytes);
    const info = codec.alloc(8);
    const pixels = codec.decode_rgba(data, bytes.byteLength, scaleEighths, info);
    const [width = 0, height = 0] = new Uint32Array(codec.memory.buffer, info, 2);
    return { data: new Uint8Array(codec.memory.buffer.slice(pixels, pixels + width * height * 4)), width, height };
  } catch (cause) {
    if (!(cause instanceof JpegFailure || cause instanceof WebAssembly.RuntimeError)) throw cause;
    // libjpeg says "Insufficient memory"; our layer says "out of memory": the image is too big, not broken.
    if (/memory/i.test(cause.message)) throw outOfMemory();
    throw new MediaError('E_CORRUPT', `The JPEG data could not be decoded (${cause.message}). The file is truncated or damaged: re-export or re-capture it.`, { format: 'JPEG' }, { cause });
  }
}

/** Encodes RGBA8 (alpha ignored) as baseline, Huffman-optimised, 4:2:0 JPEG at `quality` (1–100). */
export async function encodeJpegBaseline(raster: Raster, quality: number): Promise<Uint8Array> {
  const codec = await instantiate();
  try {
    const rgba = put(codec, raster.data);
    const info = codec.alloc(4);
    const out = codec.encode_rgba(rgba, raster.width, raster.height, Math.round(quality), info);
    const [length = 0] = new Uint32Array(codec.memory.buffer, info, 1);
    return new Uint8Array(codec.memory.buffer.slice(out, out + length));
  } catch (cause) {
    if (!(cause instanceof JpegFailure)) throw cause;
    throw new MediaError('E_CORRUPT', `The JPEG encoder failed (${cause.message}).`, { format: 'JPEG' }, { cause });
  }
}
