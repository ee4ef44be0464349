// WebP adapter: glimpse's own libwebp decoder build (kernels/webp-decoder.ts, which can rescale while
// decoding) and libwebp's encoder via @jsquash/webp. The encoder build must match the runtime's SIMD support.
import encodeWasm, { init as initEncoder } from '@jsquash/webp/encode.js';
import { anyTransparent } from '../pixels.js';
import type { Raster } from '../types.js';
import { firstWebpFrame } from '../webp-frames.js';
import { wasmModule, wasmSimdSupported } from '../wasm.js';
import { decodeWebpStill } from '../kernels/webp-decoder.js';
import { lazy, ownedBuffer, QUIET_EMSCRIPTEN, type EmscriptenInit } from './codec-support.js';

// jSquash picks its SIMD or plain glue by feature detection inside init; hand it the matching module.
const encoderReady = lazy(async () =>
  (initEncoder as unknown as EmscriptenInit)(await wasmModule(wasmSimdSupported() ? 'webp_enc_simd' : 'webp_enc'), QUIET_EMSCRIPTEN),
);

/** Decodes a still WebP (lossy, lossless, with or without alpha) to RGBA8. */
export async function decodeWebp(bytes: Uint8Array): Promise<Raster> {
  return (await decodeWebpStill(bytes)).raster;
}

export interface WebpEncodeOptions {
  /** 0–100 lossy quality; `lossless` ignores it. */
  quality: number;
  lossless?: boolean;
}

/**
 * libwebp's speed/size trade-off (0–6). Measured on a 2000×1500 photo at q85 (npm run bench inputs):
 * method 4 (libwebp's default) 333 ms / 201 KB / 38.28 dB; method 1 114 ms / 210 KB / 38.20 dB.
 */
const WEBP_METHOD = 1;

/** Lossy keeps alpha (exact edges via alpha_quality 100); lossless for screenshots that must stay sharp. */
export async function encodeWebp(raster: Raster, { quality, lossless = false }: WebpEncodeOptions): Promise<Uint8Array> {
  await encoderReady();
  const image = { data: new Uint8ClampedArray(ownedBuffer(raster.data)), width: raster.width, height: raster.height, colorSpace: 'srgb' as const };
  const encoded = await encodeWasm(image, { quality, lossless: lossless ? 1 : 0, method: WEBP_METHOD, alpha_quality: 100, exact: 0 });
  return new Uint8Array(encoded);
}

/**
 * A WebP as a still: the image itself, or an animation's first frame placed on its transparent
 * canvas (OpenAI rejects animations, the others show only one frame). A still is decoded straight
 * to `size` when given (libwebp rescales while decoding); an animation frame comes at full size.
 */
export async function decodeWebpFirstFrame(bytes: Uint8Array, size?: { width: number; height: number }): Promise<{ raster: Raster; hasAlpha: boolean }> {
  const frame = firstWebpFrame(bytes);
  if (!frame) {
    const { raster, alphaChannel } = await decodeWebpStill(bytes, size);
    return { raster, hasAlpha: alphaChannel && anyTransparent(raster) };
  }
  const still = await decodeWebp(frame.still);
  const { canvasWidth, canvasHeight, x, y } = frame;
  if (x === 0 && y === 0 && still.width === canvasWidth && still.height === canvasHeight) {
    return { raster: still, hasAlpha: anyTransparent(still) };
  }
  const data = new Uint8Array(canvasWidth * canvasHeight * 4);
  const rows = Math.min(still.height, canvasHeight - y);
  const columns = Math.min(still.width, canvasWidth - x);
  for (let row = 0; row < rows; row++) {
    const from = row * still.width * 4;
    data.set(still.data.subarray(from, from + columns * 4), ((y + row) * canvasWidth + x) * 4);
  }
  return { raster: { data, width: canvasWidth, height: canvasHeight }, hasAlpha: true };
}
