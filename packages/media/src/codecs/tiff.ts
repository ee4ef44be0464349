// TIFF adapter: glimpse's own libtiff build (kernels/tiff-decoder.ts, wasm/tiff), first page only.
import { decodeTiffRgba, type DecodedTiff } from '../kernels/tiff-decoder.js';

/**
 * Decodes a TIFF's first page to RGBA8, as stored (the Orientation tag is applied by `orient`): strips or
 * tiles; none, LZW, Deflate, PackBits, CCITT, JPEG; 1–16 bits; gray, palette, RGB, CMYK, YCbCr, Lab; alpha.
 */
export async function decodeTiff(bytes: Uint8Array): Promise<DecodedTiff> {
  return decodeTiffRgba(bytes);
}
