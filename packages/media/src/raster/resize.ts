import { resizeWithKernel } from './resize-kernel.js';
import { unpremultiply } from './pixels.js';
import type { Raster } from '../types.js';
import { wasmSimdSupported } from '../runtime/wasm.js';

/**
 * Downscales in gamma space with premultiplied alpha (no dark fringes around transparent edges):
 * first a box average by the integer factor that leaves at least 2× for the final filter (cheap, exact
 * for the pixels it merges), then a separable Lanczos-3 that removes what the box would alias.
 * Runs glimpse's own SIMD kernel (wasm/resize) where WASM SIMD exists, else the portable version below.
 * `src` is left as it is.
 */
export async function resizeRaster(src: Raster, width: number, height: number, hasAlpha: boolean): Promise<Raster> {
  if (width === src.width && height === src.height) return src;
  return wasmSimdSupported()
    ? resizeWithKernel(src, width, height, hasAlpha)
    : resizeRasterPortable(src, width, height, hasAlpha);
}

/** The same filter chain in plain TypeScript (floating point), for runtimes without WASM SIMD. */
export function resizeRasterPortable(source: Raster, width: number, height: number, hasAlpha: boolean): Raster {
  if (width === source.width && height === source.height) return source;
  const src = hasAlpha ? { ...source, data: source.data.slice() } : source;
  if (hasAlpha) premultiply(src.data);
  const factor = Math.floor(Math.min(src.width / width, src.height / height) / 2);
  const shrunk = factor >= 2 ? boxShrink(src, factor) : src;
  const out = lanczos(shrunk, width, height);
  if (hasAlpha) unpremultiply(out.data);
  return out;
}

function premultiply(data: Uint8Array): void {
  for (let i = 0; i < data.length; i += 4) {
    const a = data[i + 3]!;
    if (a === 255) continue;
    data[i] = (data[i]! * a + 127) / 255;
    data[i + 1] = (data[i + 1]! * a + 127) / 255;
    data[i + 2] = (data[i + 2]! * a + 127) / 255;
  }
}

/** Averages each factor×factor block; edge blocks average what they have. */
function boxShrink(src: Raster, factor: number): Raster {
  const width = Math.ceil(src.width / factor);
  const height = Math.ceil(src.height / factor);
  const out = new Uint8Array(width * height * 4);
  const sums = new Uint32Array(width * 4);
  const counts = new Uint32Array(width);
  const s = src.data;
  for (let oy = 0; oy < height; oy++) {
    sums.fill(0);
    counts.fill(0);
    const y1 = Math.min(src.height, (oy + 1) * factor);
    for (let y = oy * factor; y < y1; y++) {
      let i = y * src.width * 4;
      for (let x = 0; x < src.width; x++, i += 4) {
        const ox = (x / factor) | 0;
        const o = ox * 4;
        sums[o]! += s[i]!;
        sums[o + 1]! += s[i + 1]!;
        sums[o + 2]! += s[i + 2]!;
        sums[o + 3]! += s[i + 3]!;
        counts[ox]!++;
      }
    }
    let d = oy * width * 4;
    for (let ox = 0; ox < width; ox++, d += 4) {
      const n = counts[ox]!;
      const half = n >> 1;
      out[d] = (sums[ox * 4]! + half) / n;
      out[d + 1] = (sums[ox * 4 + 1]! + half) / n;
      out[d + 2] = (sums[ox * 4 + 2]! + half) / n;
      out[d + 3] = (sums[ox * 4 + 3]! + half) / n;
    }
  }
  return { data: out, width, height };
}

function lanczos3(x: number): number {
  if (x === 0) return 1;
  if (x <= -3 || x >= 3) return 0;
  const px = Math.PI * x;
  return (3 * Math.sin(px) * Math.sin(px / 3)) / (px * px);
}

interface Taps {
  start: Int32Array;
  count: Int32Array;
  /** `size` weights per output sample, normalised to sum 1. */
  weights: Float32Array;
  size: number;
}

/** Filter taps for mapping `srcSize` samples onto `dstSize`, pixel centres aligned. */
function taps(srcSize: number, dstSize: number): Taps {
  const scale = srcSize / dstSize;
  const stretch = Math.max(scale, 1);
  const support = 3 * stretch;
  const size = Math.ceil(support) * 2 + 1;
  const start = new Int32Array(dstSize);
  const count = new Int32Array(dstSize);
  const weights = new Float32Array(dstSize * size);
  for (let i = 0; i < dstSize; i++) {
    const centre = (i + 0.5) * scale - 0.5;
    const first = Math.max(0, Math.ceil(centre - support));
    const last = Math.min(srcSize - 1, Math.floor(centre + support));
    let total = 0;
    for (let j = first; j <= last; j++) total += lanczos3((j - centre) / stretch);
    start[i] = first;
    count[i] = last - first + 1;
    for (let j = first; j <= last; j++) weights[i * size + (j - first)] = lanczos3((j - centre) / stretch) / total;
  }
  return { start, count, weights, size };
}

/** Separable Lanczos-3: rows into a 12-bit intermediate (half the memory of floats), then columns. */
function lanczos(src: Raster, width: number, height: number): Raster {
  const h = taps(src.width, width);
  const v = taps(src.height, height);
  const mid = new Uint16Array(width * src.height * 4);
  const s = src.data;
  for (let y = 0; y < src.height; y++) {
    const row = y * src.width * 4;
    for (let x = 0; x < width; x++) {
      let r = 0,
        g = 0,
        b = 0,
        a = 0;
      const w0 = x * h.size;
      let i = row + h.start[x]! * 4;
      for (let k = 0, n = h.count[x]!; k < n; k++, i += 4) {
        const w = h.weights[w0 + k]!;
        r += s[i]! * w;
        g += s[i + 1]! * w;
        b += s[i + 2]! * w;
        a += s[i + 3]! * w;
      }
      const o = (y * width + x) * 4;
      mid[o] = clamp12(r * 16);
      mid[o + 1] = clamp12(g * 16);
      mid[o + 2] = clamp12(b * 16);
      mid[o + 3] = clamp12(a * 16);
    }
  }
  const out = new Uint8Array(width * height * 4);
  const stride = width * 4;
  const acc = new Float32Array(stride);
  for (let y = 0; y < height; y++) {
    acc.fill(0);
    const w0 = y * v.size;
    for (let k = 0, n = v.count[y]!; k < n; k++) {
      const w = v.weights[w0 + k]! / 16;
      const row = (v.start[y]! + k) * stride;
      for (let i = 0; i < stride; i++) acc[i]! += mid[row + i]! * w;
    }
    const o = y * stride;
    for (let i = 0; i < stride; i++) {
      const value = acc[i]!;
      out[o + i] = value <= 0 ? 0 : value >= 255 ? 255 : value + 0.5;
    }
  }
  return { data: out, width, height };
}

function clamp12(value: number): number {
  return value <= 0 ? 0 : value >= 4095 ? 4095 : value + 0.5;
}
