import type { Size } from '../raster/contract.js';

/** Longest side at most `maxEdge`, aspect kept, never upscaled (either axis first: the rounding is the same). */
export function fitEdge(size: Size, maxEdge: number): Size {
  const longest = Math.max(size.width, size.height);
  if (longest <= maxEdge) return { width: size.width, height: size.height };
  const scale = maxEdge / longest;
  return {
    width: Math.max(1, Math.round(size.width * scale)),
    height: Math.max(1, Math.round(size.height * scale)),
  };
}
