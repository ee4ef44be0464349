import type { Orientation, Raster } from './types.js';

/** Whether an orientation swaps width and height (the 90° and 270° turns, mirrored or not). */
export function swapsAxes(orientation: Orientation): boolean {
  return orientation >= 5;
}

/**
 * Turns a raster stored with EXIF `orientation` upright. Each output pixel (x, y) reads the stored pixel
 * that the tag maps there; 1 returns the input unchanged.
 */
export function applyOrientation(raster: Raster, orientation: Orientation): Raster {
  if (orientation === 1) return raster;
  const { width: w, height: h } = raster;
  const swap = swapsAxes(orientation);
  const outW = swap ? h : w;
  const outH = swap ? w : h;
  const src = new Uint32Array(raster.data.buffer, raster.data.byteOffset, w * h);
  const out = new Uint8Array(outW * outH * 4);
  const dst = new Uint32Array(out.buffer);
  for (let y = 0; y < outH; y++) {
    for (let x = 0; x < outW; x++) {
      let sx: number;
      let sy: number;
      switch (orientation) {
        case 2: sx = w - 1 - x; sy = y; break; // mirrored horizontally
        case 3: sx = w - 1 - x; sy = h - 1 - y; break; // turned 180°
        case 4: sx = x; sy = h - 1 - y; break; // mirrored vertically
        case 5: sx = y; sy = x; break; // transposed
        case 6: sx = y; sy = h - 1 - x; break; // needs 90° clockwise
        case 7: sx = w - 1 - y; sy = h - 1 - x; break; // transversed
        case 8: sx = w - 1 - y; sy = x; break; // needs 90° counter-clockwise
        default: {
          const unreachable: never = orientation;
          throw new Error(`orientation ${String(unreachable)}`);
        }
      }
      dst[y * outW + x] = src[sy * w + sx]!;
    }
  }
  return { data: out, width: outW, height: outH };
}
