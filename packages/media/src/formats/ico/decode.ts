// ICO/CUR adapter: the largest entry, decoded by the PNG codec or, for BMP bodies, the BMP decoder (given
// the file header the entry leaves out), with the entry's AND mask as transparency where it has no alpha.
import { forEachMaskedPixel, largestIcoEntry } from './entries.js';
import { anyTransparent } from '../../raster/pixels.js';
import type { Decoder } from '../../raster/contract.js';
import { writeRaster } from '../../raster/raster-rows.js';
import type { IcoInfo, Raster } from '../../types.js';
import { decodeBmp } from '../bmp/decode.js';
import { decodePngWithAlpha } from '../png/codec.js';

/** Decodes the entry glimpse shows to RGBA8 (see `largestIcoEntry`). */
export async function decodeIco(bytes: Uint8Array): Promise<{ raster: Raster; hasAlpha: boolean }> {
  const entry = largestIcoEntry(bytes);
  if (entry.kind === 'png') return decodePngWithAlpha(entry.data);

  const dib = entry.data;
  const { pixelOffset } = entry.dib;

  // A BMP file: its 14-byte header, then the DIB with the colour image's own height.
  const file = new Uint8Array(14 + dib.length);
  const header = new DataView(file.buffer);
  file.set([0x42, 0x4d]);
  header.setUint32(2, file.length, true);
  header.setUint32(10, 14 + pixelOffset, true);
  file.set(dib, 14);
  header.setInt32(14 + 8, entry.height, true);
  const { raster, hasAlpha } = decodeBmp(file);
  if (hasAlpha) return { raster, hasAlpha };

  // The AND mask follows the colour rows, bottom-up: a set bit makes the pixel transparent.
  forEachMaskedPixel(dib, entry.dib, entry.width, entry.height, (x, row) => {
    raster.data[((entry.height - 1 - row) * entry.width + x) * 4 + 3] = 0;
  });
  return { raster, hasAlpha: anyTransparent(raster) };
}

/** An icon's largest entry (at most 256×256 in practice; PNG or BMP, both lossless), decoded whole, then handed on in bands. */
export const icoDecoder: Decoder<IcoInfo> = async ({ bytes, sink }) => {
  const { raster, hasAlpha } = await decodeIco(bytes);
  writeRaster(raster, hasAlpha, sink);
  return { hasAlpha, lossless: true };
};
