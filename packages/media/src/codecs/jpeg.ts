// JPEG adapter: mozjpeg (via @jsquash/jpeg) for decoding and encoding.
import decodeWasm, { init as initDecoder } from '@jsquash/jpeg/decode.js';
import encodeWasm, { init as initEncoder } from '@jsquash/jpeg/encode.js';
import type { Raster } from '../types.js';
import { wasmModule } from '../wasm.js';
import { corrupt, lazy, ownedBuffer, QUIET_EMSCRIPTEN, rasterFrom, type EmscriptenInit } from './codec-support.js';

const decoderReady = lazy(async () => (initDecoder as unknown as EmscriptenInit)(await wasmModule('mozjpeg_dec'), QUIET_EMSCRIPTEN));
const encoderReady = lazy(async () => (initEncoder as unknown as EmscriptenInit)(await wasmModule('mozjpeg_enc'), QUIET_EMSCRIPTEN));

/** Decodes to RGBA8 as stored: EXIF orientation is applied by `orient`, the same way for every format. */
export async function decodeJpeg(bytes: Uint8Array): Promise<Raster> {
  await decoderReady();
  try {
    // jSquash's `preserveOrientation: true` means "rotate by EXIF"; we keep the stored layout.
    return rasterFrom(await decodeWasm(ownedBuffer(bytes), { preserveOrientation: false }));
  } catch (cause) {
    throw corrupt('JPEG', cause);
  }
}

export interface JpegEncodeOptions {
  quality: number;
}

/** Baseline, Huffman-optimised, 4:2:0: small and fast; trellis and progressive cost seconds for little gain. */
export async function encodeJpeg(raster: Raster, { quality }: JpegEncodeOptions): Promise<Uint8Array> {
  await encoderReady();
  const image = { data: new Uint8ClampedArray(ownedBuffer(raster.data)), width: raster.width, height: raster.height, colorSpace: 'srgb' as const };
  const encoded = await encodeWasm(image, {
    quality,
    baseline: true,
    progressive: false,
    optimize_coding: true,
    trellis_multipass: false,
    trellis_opt_zero: false,
    trellis_opt_table: false,
    trellis_loops: 1,
  });
  return new Uint8Array(encoded);
}
