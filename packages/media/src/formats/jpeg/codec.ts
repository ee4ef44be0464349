// JPEG adapter: glimpse's own libjpeg-turbo build (kernel.ts, wasm/jpeg) for decoding and encoding,
// both in bands of rows. It replaced mozjpeg: one module instead of two, and it decodes at M/8 scale in
// the DCT domain, which halves the decode of a photo bound for a smaller size.
import { decodeJpegRows, encodeJpegRows, jpegScaleEighths } from './kernel.js';
import type { JpegInfo } from '../../types.js';
import type { Decoder, Encoder } from '../../raster/contract.js';
import { scaledRegion } from '../../pipeline/region.js';

/**
 * Targets whose longest side is below this keep a 2× margin over the DCT-scaled decode: there the decode
 * is cheap and the detail visible (113×150 → 57×75: 44.9 dB at 4/8, 54.8 dB at 8/8 against a full decode
 * resized with Lanczos-3). Larger targets decode at the smallest covering scale, for speed (4000×3000 →
 * 2000×1500: 50.2 dB at 4/8 in half the time of 8/8's 55.0 dB).
 */
export const SMALL_TARGET_EDGE = 1000;

/**
 * Decodes as stored (EXIF orientation is applied to the output, the same way for every format), at the
 * smallest M/8 scale whose rows still cover `cover` on both axes (twice over for small targets), so only
 * a small shrink is left for the resizer. CMYK/YCCK become RGB. Holds the file, one MCU row and a band; a
 * progressive file also holds its DCT coefficients until the last scan (2 bytes per sample: 3 bytes per
 * pixel for 4:2:0, 6 for 4:4:4). A file cut short decodes with its missing rows grey, and says so. Given a
 * `crop`, only the columns and rows that hold it are reconstructed (a 600×400 region of a 24 MP photo
 * inverse-transforms its own blocks, not the rows' whole width above and across it).
 */
export const jpegDecoder: Decoder<JpegInfo> = async ({ bytes, facts, cover, sink, crop }) => {
  const margin = Math.max(cover.width, cover.height) < SMALL_TARGET_EDGE ? 2 : 1;
  const completeness = await decodeJpegRows(
    bytes,
    jpegScaleEighths(facts.width, facts.height, cover.width, cover.height, margin),
    sink,
    crop && ((whole) => scaledRegion(crop, facts, whole)),
  );
  return { hasAlpha: false, lossless: false, ...(completeness.eofScan > 0 && { recovered: completeness }) };
};

export interface JpegEncodeOptions {
  quality: number;
}

/** Baseline, Huffman-optimised, 4:2:0: small and fast; trellis and progressive cost seconds for little gain. */
export const encodeJpeg: Encoder<JpegEncodeOptions> = (source, { quality }) => encodeJpegRows(source, quality);
