// glimpse's own JPEG codec (wasm/jpeg/codec.c over libjpeg-turbo): decodes at M/8 scale in the DCT
// domain and encodes baseline Huffman-optimised JPEG. Each call runs in a fresh instance, so a corrupt
// file cannot leave state behind and the decoder's memory is released when the call ends.
import { MediaError } from '../errors.js';
import type { Raster } from '../types.js';
import { copyIn, instantiateKernel, KernelFailure, kernelOutOfMemory, type KernelExports } from './kernel-instance.js';

interface JpegExports extends KernelExports {
  decode_rgba(data: number, size: number, scaleEighths: number, info: number): number;
  encode_rgba(rgba: number, width: number, height: number, quality: number, info: number): number;
}

const FUNCTIONS = ['decode_rgba', 'encode_rgba'] as const;

/**
 * The smallest libjpeg scale, in eighths, whose output still covers `margin` × `target` on both axes, so
 * the final resize only ever shrinks. Decoding at 4/8 costs about half the full decode; the scaled inverse
 * DCT drops frequencies above the new Nyquist limit, so it does not alias, but it is a softer filter than
 * the resizer's Lanczos-3: a margin of 2 leaves the last halving to the resizer.
 */
export function jpegScaleEighths(width: number, height: number, targetWidth: number, targetHeight: number, margin = 1): number {
  for (let eighths = 1; eighths < 8; eighths++) {
    if (Math.ceil((width * eighths) / 8) >= targetWidth * margin && Math.ceil((height * eighths) / 8) >= targetHeight * margin) return eighths;
  }
  return 8;
}

/** Decoded pixels, and how much of them came from the file when it ends early. */
export interface DecodedJpeg extends Raster {
  /** Rows (from the top, as stored) decoded from real data; the rest are flat grey. Equals `height` unless cut short. */
  realRows: number;
  /** The scan the data ran out in (0: it did not). In scan 2 or later every row has data, with less detail. */
  eofScan: number;
}

/** Decodes to RGBA8 at `scaleEighths`/8 of the stored size (EXIF orientation not applied). */
export async function decodeJpegScaled(bytes: Uint8Array, scaleEighths = 8): Promise<DecodedJpeg> {
  const codec = await instantiateKernel<JpegExports>('jpeg', FUNCTIONS);
  try {
    const data = copyIn(codec, bytes, 'JPEG');
    const info = codec.alloc(16);
    const pixels = codec.decode_rgba(data, bytes.byteLength, scaleEighths, info);
    const [width = 0, height = 0, realRows = 0, eofScan = 0] = new Uint32Array(codec.memory.buffer, info, 4);
    return { data: new Uint8Array(codec.memory.buffer.slice(pixels, pixels + width * height * 4)), width, height, realRows, eofScan };
  } catch (cause) {
    if (!(cause instanceof KernelFailure || cause instanceof WebAssembly.RuntimeError)) throw cause;
    // libjpeg says "Insufficient memory"; our layer says "out of memory": the image is too big, not broken.
    if (/memory/i.test(cause.message)) throw kernelOutOfMemory('JPEG');
    throw new MediaError('E_CORRUPT', `The JPEG data could not be decoded (${cause.message}). The file is truncated or damaged: re-export or re-capture it.`, { format: 'JPEG' }, { cause });
  }
}

/** Encodes RGBA8 (alpha ignored) as baseline, Huffman-optimised, 4:2:0 JPEG at `quality` (1–100). */
export async function encodeJpegBaseline(raster: Raster, quality: number): Promise<Uint8Array> {
  const codec = await instantiateKernel<JpegExports>('jpeg', FUNCTIONS);
  try {
    const rgba = copyIn(codec, raster.data, 'JPEG');
    const info = codec.alloc(4);
    const out = codec.encode_rgba(rgba, raster.width, raster.height, Math.round(quality), info);
    const [length = 0] = new Uint32Array(codec.memory.buffer, info, 1);
    return new Uint8Array(codec.memory.buffer.slice(out, out + length));
  } catch (cause) {
    if (!(cause instanceof KernelFailure)) throw cause;
    throw new MediaError('E_CORRUPT', `The JPEG encoder failed (${cause.message}).`, { format: 'JPEG' }, { cause });
  }
}
