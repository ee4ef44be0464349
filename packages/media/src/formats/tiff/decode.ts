// TIFF adapter: glimpse's own libtiff build (kernel.ts, wasm/tiff), first page only.
import { decodeTiffRows } from './kernel.js';
import type { TiffInfo } from '../../types.js';
import type { Decoder } from '../../raster/contract.js';

/**
 * A TIFF's first page as RGBA8 rows, as stored (the Orientation tag is applied by the pipeline): strips or
 * tiles; none, LZW, Deflate, PackBits, CCITT, JPEG; 1–16 bits; gray, palette, RGB, CMYK, YCbCr, Lab; alpha.
 * Strips go a scanline at a time, so the decoder holds one band of rows (~256 KB of RGBA) whatever the
 * strip size; a tiled file holds one row of tiles (tile height × image width × 4 bytes, plus one tile),
 * as do files with separate colour planes or YCbCr that libtiff upsamples itself (a strip per plane).
 * CMYK that libtiff cannot convert (16-bit, alpha, separate planes) goes through wasm/tiff's own reader
 * the same way: a scanline per plane in strips, a row of tiles (one tile of every plane at a time) in tiles.
 * Lossless unless JPEG-compressed (the header's compression tag, read by probe).
 */
export const tiffDecoder: Decoder<TiffInfo> = async ({ bytes, facts, sink }) => ({
  ...(await decodeTiffRows(bytes, sink)),
  lossless: facts.lossless,
});
