// JPEG adapter: glimpse's own libjpeg-turbo build (kernels/jpeg-codec.ts, wasm/jpeg) for decoding and encoding.
// It replaced mozjpeg: one 215 KB module instead of two (418 KB), and it decodes at M/8 scale in the DCT
// domain, which halves the decode of a photo bound for a smaller size.
import { decodeJpegScaled, encodeJpegBaseline, jpegScaleEighths, type DecodedJpeg } from '../kernels/jpeg-codec.js';
import type { Raster } from '../types.js';

/** Shrink-on-load: the stored size (from the header) and the size the decoded pixels must still cover. */
export interface JpegShrinkOnLoad {
  stored: { width: number; height: number };
  cover: { width: number; height: number };
}

/**
 * Targets whose longest side is below this keep a 2× margin over the DCT-scaled decode: there the decode
 * is cheap and the detail visible (113×150 → 57×75: 44.9 dB at 4/8, 54.8 dB at 8/8 against a full decode
 * resized with Lanczos-3). Larger targets decode at the smallest covering scale, for speed (4000×3000 →
 * 2000×1500: 50.2 dB at 4/8 in half the time of 8/8's 55.0 dB).
 */
export const SMALL_TARGET_EDGE = 1000;

/**
 * Decodes to RGBA8 as stored (EXIF orientation is applied by `orient`, the same way for every format).
 * With `shrink`, decodes at the smallest M/8 scale that still covers `shrink.cover` on both axes (twice
 * over for small targets), so only a small shrink is left for the resizer. CMYK/YCCK become RGB.
 */
export async function decodeJpeg(bytes: Uint8Array, shrink?: JpegShrinkOnLoad): Promise<DecodedJpeg> {
  const margin = shrink && Math.max(shrink.cover.width, shrink.cover.height) < SMALL_TARGET_EDGE ? 2 : 1;
  const eighths = shrink ? jpegScaleEighths(shrink.stored.width, shrink.stored.height, shrink.cover.width, shrink.cover.height, margin) : 8;
  return decodeJpegScaled(bytes, eighths);
}

export interface JpegEncodeOptions {
  quality: number;
}

/** Baseline, Huffman-optimised, 4:2:0: small and fast; trellis and progressive cost seconds for little gain. */
export async function encodeJpeg(raster: Raster, { quality }: JpegEncodeOptions): Promise<Uint8Array> {
  return encodeJpegBaseline(raster, quality);
}
