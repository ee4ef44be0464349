// GIF adapter: gifuct-js parses and LZW-decodes; only the first frame is needed (providers want stills).
import { decompressFrame, parseGIF } from 'gifuct-js';
import type { Raster } from '../types.js';
import { corrupt } from './codec-support.js';

/**
 * The first frame composited onto the logical screen, transparent where the frame does not cover it.
 * Frame 0 needs no disposal handling: nothing precedes it.
 */
export function decodeGifFirstFrame(bytes: Uint8Array): { raster: Raster; hasAlpha: boolean } {
  try {
    const owned = new Uint8Array(bytes);
    const gif = parseGIF(owned.buffer);
    const first = gif.frames.find((frame) => 'image' in frame);
    if (!first) throw new Error('no image frame');
    const frame = decompressFrame(first, gif.gct, true);
    const width = gif.lsd.width;
    const height = gif.lsd.height;
    const data = new Uint8Array(width * height * 4);
    const { top, left, width: fw, height: fh } = frame.dims;
    let hasAlpha = fw < width || fh < height || top > 0 || left > 0;
    for (let y = 0; y < fh; y++) {
      const ty = top + y;
      if (ty >= height) break;
      for (let x = 0; x < fw; x++) {
        const tx = left + x;
        if (tx >= width) break;
        const s = (y * fw + x) * 4;
        const d = (ty * width + tx) * 4;
        const a = frame.patch[s + 3]!;
        if (a === 0) hasAlpha = true;
        data[d] = frame.patch[s]!;
        data[d + 1] = frame.patch[s + 1]!;
        data[d + 2] = frame.patch[s + 2]!;
        data[d + 3] = a;
      }
    }
    return { raster: { data, width, height }, hasAlpha };
  } catch (cause) {
    throw corrupt('GIF', cause);
  }
}
