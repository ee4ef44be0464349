// Encoding a raster held whole (the fitted output), through the writer the output type's record names.
import type { Encoding } from '../formats/format.js';
import { writerOf } from '../formats/registry.js';
import { rasterSource } from '../raster/raster-rows.js';
import type { Raster } from '../types.js';

export type { Encoding, OutputType } from '../formats/format.js';

/** Encodes a whole raster (read as rows); `mayHaveAlpha` false promises every pixel is opaque. */
export function encodeRaster(raster: Raster, encoding: Encoding, mayHaveAlpha = true): Promise<Uint8Array> {
  return writerOf(encoding.type).encode(rasterSource(raster, mayHaveAlpha), encoding);
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
  const writer = writerOf(encoding.type);
  const source = rasterSource(raster, mayHaveAlpha);
  const data = writer.encodeWithin
    ? await writer.encodeWithin(source, encoding, maxBytes)
    : await writer.encode(source, encoding);
  return data && data.byteLength <= maxBytes ? data : undefined;
}
