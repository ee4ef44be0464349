import { describe, expect, it } from 'vitest';
import { useNodeWasm } from '../../../../test/support/node-wasm.js';
import { resizeRaster, resizeRasterPortable } from './resize.js';
import type { Raster } from '../types.js';

useNodeWasm();

type Resize = (src: Raster, width: number, height: number, hasAlpha: boolean) => Promise<Raster>;
const IMPLEMENTATIONS: [string, Resize][] = [
  ['WASM SIMD kernel', resizeRaster],
  ['portable TypeScript', async (...args) => resizeRasterPortable(...args)],
];

function filled(
  width: number,
  height: number,
  pixel: (x: number, y: number) => [number, number, number, number],
): Raster {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set(pixel(x, y), (y * width + x) * 4);
  return { data, width, height };
}

describe.each(IMPLEMENTATIONS)('resizeRaster (%s)', (_name, resizeRaster) => {
  it('keeps a flat colour exact at any factor', async () => {
    for (const [w, h] of [
      [333, 200],
      [100, 61],
      [37, 23],
    ] as const) {
      const out = await resizeRaster(
        filled(1000, 600, () => [200, 100, 50, 255]),
        w,
        h,
        false,
      );
      expect([out.width, out.height]).toEqual([w, h]);
      for (let i = 0; i < out.data.length; i += 4)
        expect([...out.data.subarray(i, i + 4)]).toEqual([200, 100, 50, 255]);
    }
  });

  it('averages fine stripes to mid grey instead of aliasing them', async () => {
    // 1-px black/white stripes at 5:1 would alias into bands with point sampling.
    const out = await resizeRaster(
      filled(1000, 100, (x) => (x % 2 ? [255, 255, 255, 255] : [0, 0, 0, 255])),
      200,
      20,
      false,
    );
    for (let i = 0; i < out.data.length; i += 4) expect(Math.abs(out.data[i]! - 128)).toBeLessThanOrEqual(3);
  });

  it('does not bleed the colour of transparent pixels into edges (premultiplied alpha)', async () => {
    // Left half opaque red, right half fully transparent *green*: no green may appear.
    const out = await resizeRaster(
      filled(400, 40, (x) => (x < 200 ? [255, 0, 0, 255] : [0, 255, 0, 0])),
      100,
      10,
      true,
    );
    const visibleGreens = Array.from({ length: out.data.length / 4 }, (_, pixel) => pixel * 4)
      .filter((i) => out.data[i + 3]! > 16)
      .map((i) => out.data[i + 1]!);
    expect(visibleGreens.length).toBeGreaterThan(0);
    expect(visibleGreens.filter((green) => green > 8)).toEqual([]);
    expect(out.data[3]).toBe(255); // far left stays opaque
    expect(out.data[99 * 4 + 3]).toBe(0); // far right stays transparent
  });

  it('keeps a hard edge sharp: at most two transition pixels', async () => {
    const out = await resizeRaster(
      filled(800, 8, (x) => (x < 400 ? [0, 0, 0, 255] : [255, 255, 255, 255])),
      200,
      2,
      false,
    );
    const row = Array.from({ length: 200 }, (_, x) => out.data[x * 4]!);
    const transition = row.filter((v) => v > 20 && v < 235).length;
    expect(transition).toBeLessThanOrEqual(2);
  });
});
