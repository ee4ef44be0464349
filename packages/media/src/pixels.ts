import type { Raster } from './types.js';

/** Whether any pixel is not fully opaque: decides PNG→JPEG vs PNG→WebP when bytes must shrink. */
export function anyTransparent(raster: Raster): boolean {
  const data = raster.data;
  for (let i = 3; i < data.length; i += 4) if (data[i] !== 255) return true;
  return false;
}
