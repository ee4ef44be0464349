import type { Raster } from '../types.js';

/** Whether any pixel of RGBA8 `raster.data` is not fully opaque: decides PNG→JPEG vs PNG→WebP when bytes must shrink. */
export function anyTransparent(raster: Pick<Raster, 'data'>): boolean {
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

/**
 * Straight alpha from premultiplied (resvg renders premultiplied; PNG and every encoder here store
 * straight). In place; rounds to nearest, so 50 % of #008000 comes back as (0,128,0,128).
 */
export function unpremultiply(data: Uint8Array): void {
  for (let i = 0; i < data.length; i += 4) {
    const a = data[i + 3]!;
    if (a === 255 || a === 0) continue;
    const half = a >> 1;
    data[i] = Math.min(255, Math.floor((data[i]! * 255 + half) / a));
    data[i + 1] = Math.min(255, Math.floor((data[i + 1]! * 255 + half) / a));
    data[i + 2] = Math.min(255, Math.floor((data[i + 2]! * 255 + half) / a));
  }
}
