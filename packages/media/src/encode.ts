import { encodeJpeg } from './codecs/jpeg.js';
import { encodePng } from './codecs/png.js';
import { encodeWebp } from './codecs/webp.js';
import type { Raster } from './types.js';

/** The formats the core writes. GIF and BMP are read but never written: PNG carries them losslessly. */
export type OutputType = 'image/png' | 'image/jpeg' | 'image/webp';

/** One encoding choice: a format and, for lossy ones, a quality; WebP may be lossless. */
export interface Encoding {
  type: OutputType;
  quality: number;
  lossless: boolean;
}

export function encodeRaster(raster: Raster, encoding: Encoding): Promise<Uint8Array> {
  switch (encoding.type) {
    case 'image/png':
      return encodePng(raster);
    case 'image/jpeg':
      return encodeJpeg(raster, { quality: encoding.quality });
    case 'image/webp':
      return encodeWebp(raster, { quality: encoding.quality, lossless: encoding.lossless });
    default: {
      const unreachable: never = encoding.type;
      throw new Error(`no encoder for ${String(unreachable)}`);
    }
  }
}
