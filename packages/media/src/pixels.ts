import type { Raster } from './types.js';

/** Whether any pixel is not fully opaque: decides PNG→JPEG vs PNG→WebP when bytes must shrink. */
export function anyTransparent(raster: Raster): boolean {
  const data = raster.data;
  // Four pixels' alpha bytes at a time: OR-ing alpha masks is ~4× faster than a byte loop on 6 MP.
  if (data.byteOffset % 4 === 0) {
    const words = new Uint32Array(data.buffer, data.byteOffset, data.byteLength >>> 2);
    const alpha = littleEndian ? 0xff000000 : 0x000000ff;
    for (let i = 0; i < words.length; i++) if ((words[i]! & alpha) >>> 0 !== alpha >>> 0) return true;
    return false;
  }
  for (let i = 3; i < data.length; i += 4) if (data[i] !== 255) return true;
  return false;
}

const littleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
