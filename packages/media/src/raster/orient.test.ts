import { describe, expect, it } from 'vitest';
import { applyOrientation, orientedRaster } from './orient.js';
import type { Orientation, Raster } from '../types.js';

/** A 3×2 raster whose pixel at (x, y) has red = 10·x + y + 1, so every position is distinguishable. */
function labelled(): Raster {
  const width = 3;
  const height = 2;
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) data.set([10 * x + y + 1, 0, 0, 255], (y * width + x) * 4);
  return { data, width, height };
}

function labels(raster: Raster): number[][] {
  return Array.from({ length: raster.height }, (_, y) =>
    Array.from({ length: raster.width }, (_, x) => raster.data[(y * raster.width + x) * 4]!),
  );
}

// Stored grid (labels):   1 11 21
//                         2 12 22
const UPRIGHT: Record<Orientation, number[][]> = {
  1: [
    [1, 11, 21],
    [2, 12, 22],
  ],
  2: [
    [21, 11, 1],
    [22, 12, 2],
  ],
  3: [
    [22, 12, 2],
    [21, 11, 1],
  ],
  4: [
    [2, 12, 22],
    [1, 11, 21],
  ],
  5: [
    [1, 2],
    [11, 12],
    [21, 22],
  ],
  6: [
    [2, 1],
    [12, 11],
    [22, 21],
  ],
  7: [
    [22, 21],
    [12, 11],
    [2, 1],
  ],
  8: [
    [21, 22],
    [11, 12],
    [1, 2],
  ],
};

describe('applyOrientation', () => {
  it('places rows that arrive bottom-up, and rows in views at any offset', () => {
    const stored = labelled();
    const rows = new Uint8Array(1 + stored.data.length);
    rows.set(stored.data.subarray(12), 1); // stored row 1 first, one byte into the buffer
    rows.set(stored.data.subarray(0, 12), 13);
    const upright = orientedRaster(6, stored, true);
    upright.write(rows.subarray(1), 2);
    expect(labels(upright.raster())).toEqual(UPRIGHT[6]);
  });

  for (const [tag, expected] of Object.entries(UPRIGHT)) {
    it(`turns orientation ${tag} upright`, () => {
      const out = applyOrientation(labelled(), Number(tag) as Orientation);
      expect(labels(out)).toEqual(expected);
      expect(out.data.byteLength).toBe(out.width * out.height * 4);
    });
  }
});
