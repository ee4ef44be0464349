// TIFF: the first page, decoded by glimpse's libtiff build; no route takes it.
import { presetsTaking } from '../../presets/takers.js';
import type { TiffInfo } from '../../types.js';
import { startsWithBytes } from '../byte-reader.js';
import type { RasterFormat } from '../format.js';
import { tiffDecoder } from './decode.js';
import { probeTiff } from './probe.js';

export const tiff: RasterFormat<TiffInfo> = {
  kind: 'raster',
  mediaType: 'image/tiff',
  label: 'TIFF',
  extensions: ['tif', 'tiff'],
  // Byte order II or MM, then 42 (TIFF) or 43 (BigTIFF).
  matches: (bytes) =>
    [
      [0x49, 0x49, 0x2a, 0x00],
      [0x4d, 0x4d, 0x00, 0x2a],
      [0x49, 0x49, 0x2b, 0x00],
      [0x4d, 0x4d, 0x00, 0x2b],
    ].some((magic) => startsWithBytes(bytes, magic)),
  probe: probeTiff,
  takenAsIsBy: presetsTaking('image/tiff'),
  hasDecoder: () => true,
  decode: tiffDecoder,
  docs: {
    decoder: 'libtiff 4.5.0 + zlib + libjpeg-turbo decoder (`tiff.wasm`)',
    licence: 'libtiff (BSD-like), zlib, IJG',
    output: 'PNG; JPEG if JPEG-compressed',
    notes:
      'first page (step `first-page`, `original.pages`); strips, tiles; none, LZW, Deflate, PackBits, CCITT G3/G4, JPEG, old JPEG; 1–16 bit; gray, palette, RGB, CMYK (see below), YCbCr, Lab; alpha',
  },
};
