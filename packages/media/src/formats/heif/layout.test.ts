import { beforeAll, describe, expect, it } from 'vitest';
import { codedImageOf, gridHeif, heifEnc, writeHeif } from '../../../../../test/fixtures/heif-writer.js';
import { naturalPixels } from '../../../../../test/fixtures/pixels.js';
import { MediaError } from '../../errors.js';
import { heifPartsPresent, readHeifLayout } from './layout.js';
import { throwsWith } from '../../../../../test/support/typed-errors.js';

let single: Uint8Array;
let grid: Uint8Array;

beforeAll(async () => {
  single = await heifEnc(naturalPixels(96, 64));
  grid = await gridHeif(naturalPixels(200, 130), 64);
}, 60_000);

describe('readHeifLayout', () => {
  it('reads a single coded image as heif-enc writes it', () => {
    const layout = readHeifLayout(single, 'HEIC');
    expect(layout).toMatchObject({
      width: 96,
      height: 64,
      bitDepth: 8,
      orientation: 1,
      hasAlpha: false,
      primary: { type: 'hvc1' },
    });
    expect(layout.grid).toBeUndefined();
    expect(heifPartsPresent(layout, single.length)).toBe(true);
  });

  it('reads a grid: tiles row by row, tile size and output size', () => {
    const layout = readHeifLayout(grid, 'HEIC');
    expect(layout.primary.type).toBe('grid');
    expect(layout.grid).toMatchObject({
      rows: 3,
      columns: 4,
      outputWidth: 200,
      outputHeight: 130,
      tileWidth: 64,
      tileHeight: 64,
    });
    expect(layout.grid?.tiles).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect({ width: layout.width, height: layout.height }).toEqual({ width: 200, height: 130 });
    expect(layout.parts).toHaveLength(13);
  });

  it('turns irot and imir, in order, into the EXIF orientation that shows the same picture', () => {
    const tiles = [codedImageOf(single)];
    const orientation = (rotate: 0 | 1 | 2 | 3, mirror?: 0 | 1) =>
      readHeifLayout(writeHeif({ tiles, rotate, ...(mirror !== undefined && { mirror }) }), 'HEIC').orientation;
    expect([0, 1, 2, 3].map((turns) => orientation(turns as 0 | 1 | 2 | 3))).toEqual([1, 8, 3, 6]);
    expect(orientation(0, 0)).toBe(4);
    expect(orientation(0, 1)).toBe(2);
    // A quarter turn anticlockwise, then top and bottom swapped: the transpose; clockwise: the transverse.
    expect(orientation(1, 0)).toBe(5);
    expect(orientation(3, 0)).toBe(7);
  });

  it('reads a clean aperture as a crop of the stored image', () => {
    const layout = readHeifLayout(
      writeHeif({ tiles: [codedImageOf(single)], clap: { width: 80, height: 50 } }),
      'HEIC',
    );
    expect(layout.crop).toEqual({ x: 8, y: 7, width: 80, height: 50 });
  });

  it('refuses a file cut anywhere as truncated', () => {
    for (const length of [12, 40, 200, 400, grid.length - 10])
      throwsWith(() => readHeifLayout(grid.subarray(0, length), 'HEIC'), MediaError, 'E_CORRUPT');
  });

  it('checks that every part of the primary image lies inside the file', () => {
    const layout = readHeifLayout(grid, 'HEIC');
    expect(heifPartsPresent(layout, grid.length)).toBe(true);
    expect(heifPartsPresent(layout, grid.length - 1)).toBe(false);
  });

  it('refuses a grid whose tiles do not add up', () => {
    const tiles = [codedImageOf(single)];
    const file = writeHeif({ tiles, grid: { columns: 2, rows: 1, width: 192, height: 64 } });
    throwsWith(() => readHeifLayout(file, 'HEIC'), MediaError, 'E_CORRUPT');
  });

  it('refuses a grid that lists itself as its tile (E_CORRUPT, not an unsupported item type)', () => {
    const file = writeHeif({ tiles: [codedImageOf(single)], grid: { columns: 1, rows: 1, width: 96, height: 64 } });
    const dimg = Buffer.from(file).indexOf(Buffer.from('dimg'));
    const view = new DataView(file.buffer, file.byteOffset);
    expect([view.getUint16(dimg + 4), view.getUint16(dimg + 6), view.getUint16(dimg + 8)]).toEqual([2, 1, 1]);
    view.setUint16(dimg + 8, 2); // grid 2 → tile 2: itself
    expect(() => readHeifLayout(file, 'HEIC')).toThrow(/grid image 2 lists itself as a tile/);
  });
});
