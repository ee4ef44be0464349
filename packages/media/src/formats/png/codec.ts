// PNG adapter: glimpse's own libpng + zlib build (kernel.ts, wasm/png), a fresh instance per
// call, both directions in bands of rows.
import {
  decodePngRgbaWithAlpha,
  decodePngRows,
  encodePngRows,
  encodePngRowsWithin,
  type DecodedPng,
} from './kernel.js';
import type { PngInfo } from '../../types.js';
import type { Decoder, Encoder, RowSource } from '../../raster/contract.js';

/**
 * zlib level 2 with adaptive filtering. Measured on 2000 px images, encode ms / KB at levels 1, 2, 3, 6:
 * a UI screenshot 46/386, 47/380, 50/374, 78/364; a synthetic screenshot 59/706, 59/684, 70/656,
 * 128/664; a photo 154/3624, 181/3555, 314/3374, 1343/3102. Level 2 keeps most of level 1's speed and
 * half its size penalty; higher levels buy 1–13 % for 1.2–7× the time. (squoosh's encoder, replaced:
 * 23/619, 37/1549, 59/5182.)
 */
const ZLIB_LEVEL = 2;

/**
 * Decodes any PNG (palette, tRNS, gray, gray+alpha, 16-bit, interlaced) to RGBA8 rows; colour chunks are
 * not applied. Holds 64 KB of the file at a time, zlib's window and a band; an interlaced file holds its
 * whole image (4 bytes per pixel) until its last pass. Transparency is found as the rows go by.
 */
export const pngDecoder: Decoder<PngInfo> = async ({ bytes, facts, sink }) => ({
  ...(await decodePngRows(bytes, facts.hasAlpha, sink)),
  lossless: true,
});

/** Lossless 8-bit PNG: RGB when every pixel is opaque, RGBA otherwise. */
export const encodePng: Encoder<object> = (source) => encodePngRows(source, ZLIB_LEVEL);

/** As encodePng, but given up (undefined) as soon as the PNG would pass `maxBytes`. */
export function encodePngWithin(source: RowSource, maxBytes: number): Promise<Uint8Array | undefined> {
  return encodePngRowsWithin(source, ZLIB_LEVEL, maxBytes);
}

/** A whole PNG decoded at once, with whether any pixel is not fully opaque (for small images: ICO entries). */
export async function decodePngWithAlpha(bytes: Uint8Array): Promise<DecodedPng> {
  return decodePngRgbaWithAlpha(bytes);
}
