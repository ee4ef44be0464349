import type { RowSource } from '../raster/contract.js';
import { rasterSource } from '../raster/raster-rows.js';
import type { Raster } from '../types.js';
import { encodeJpeg } from '../formats/jpeg/codec.js';
import { encodePng, encodePngWithin } from '../formats/png/codec.js';
import { encodeWebp } from '../formats/webp/codec.js';

/** The formats the core writes. GIF and BMP are read but never written: PNG carries them losslessly. */
export type OutputType = 'image/png' | 'image/jpeg' | 'image/webp';

/** One encoding choice: a format and, for lossy ones, a quality; WebP may be lossless. */
export interface Encoding {
  type: OutputType;
  quality: number;
  lossless: boolean;
}

/** Encodes the rows of `source`, which every encoder reads a band at a time. */
export function encodeRows(source: RowSource, encoding: Encoding): Promise<Uint8Array> {
  switch (encoding.type) {
    case 'image/png':
      return encodePng(source, {});
    case 'image/jpeg':
      return encodeJpeg(source, { quality: encoding.quality });
    case 'image/webp':
      return encodeWebp(source, { quality: encoding.quality, lossless: encoding.lossless });
    default: {
      const unreachable: never = encoding.type;
      throw new Error(`no encoder for ${String(unreachable)}`);
    }
  }
}

/** Encodes a whole raster (read as rows); `mayHaveAlpha` false promises every pixel is opaque. */
export function encodeRaster(raster: Raster, encoding: Encoding, mayHaveAlpha = true): Promise<Uint8Array> {
  return encodeRows(rasterSource(raster, mayHaveAlpha), encoding);
}

/**
 * As encodeRaster, but only wanted if at most `maxBytes` (undefined otherwise). PNG gives up as soon as
 * its output passes the limit, so the PNG that does not fit is never finished nor held whole; the lossy
 * encoders finish (their bytes are not known before the end).
 */
export async function encodeRasterWithin(
  raster: Raster,
  encoding: Encoding,
  mayHaveAlpha: boolean,
  maxBytes: number,
): Promise<Uint8Array | undefined> {
  const source = rasterSource(raster, mayHaveAlpha);
  const data =
    encoding.type === 'image/png' ? await encodePngWithin(source, maxBytes) : await encodeRows(source, encoding);
  return data && data.byteLength <= maxBytes ? data : undefined;
}
