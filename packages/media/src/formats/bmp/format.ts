// BMP: decoded in TypeScript; no route takes it, so it is always converted (to PNG: it is lossless).
import { presetsTaking } from '../../presets/takers.js';
import type { BmpInfo } from '../../types.js';
import type { RasterFormat } from '../format.js';
import { bmpDecoder } from './decode.js';
import { probeBmp } from './probe.js';

/** Bytes of a BMP's DIB header for every version we know (core, info, v2, v3, OS/2 v2 short, v4, v5). */
const BMP_HEADER_SIZES = new Set([12, 16, 40, 52, 56, 64, 108, 124]);

export const bmp: RasterFormat<BmpInfo> = {
  kind: 'raster',
  mediaType: 'image/bmp',
  label: 'BMP',
  extensions: ['bmp'],
  // "BM" alone is common in text: a known DIB header size, and at least the header itself, are required too.
  matches: (bytes) =>
    bytes.length >= 18 &&
    bytes[0] === 0x42 &&
    bytes[1] === 0x4d &&
    BMP_HEADER_SIZES.has(bytes[14]! | (bytes[15]! << 8) | (bytes[16]! << 16) | (bytes[17]! << 24)),
  probe: (bytes) => ({ info: probeBmp(bytes) }),
  takenAsIsBy: presetsTaking('image/bmp'),
  hasDecoder: () => true,
  decode: bmpDecoder,
  docs: { decoder: 'TypeScript', licence: "glimpse's", output: 'PNG' },
};
