// Where the tiles of an image go: a grid of equal slices, each within the working size at full resolution,
// overlapping a little so a line cut at one tile's edge is whole in the next, as few as the size allows.
import { fitsWorkingSize, type WorkingSize } from '../presets/working-size.js';
import type { Size } from '../raster/contract.js';
import type { Region } from '../types.js';

export interface TilePlan {
  columns: number;
  rows: number;
  /** Every tile's region in the image, in reading order: left to right, then top to bottom. */
  regions: Region[];
}

/** The tallest tile of this width within the working size (0 when not even one row fits). */
function tallestTile(width: number, height: number, working: WorkingSize): number {
  if (!fitsWorkingSize({ width, height: 1 }, working)) return 0;
  let fits = 1;
  let over = height + 1;
  while (over - fits > 1) {
    const middle = Math.floor((fits + over) / 2);
    if (fitsWorkingSize({ width, height: middle }, working)) fits = middle;
    else over = middle;
  }
  return fits;
}

/** `count` starts from 0 to `length - size`, evenly spread (the last tile ends at the image's edge). */
function starts(count: number, length: number, size: number): number[] {
  if (count === 1) return [0];
  return Array.from({ length: count }, (_, i) => Math.round((i * (length - size)) / (count - 1)));
}

/**
 * The grid with the fewest tiles (the fewest columns among equals) whose tiles fit `working` as they are,
 * each sharing `overlap` pixels with its neighbours (less when a tile is small). An image that fits whole is
 * one tile.
 */
export function planTiles(image: Size, working: WorkingSize, overlap: number): TilePlan {
  let best: { columns: number; rows: number; width: number; height: number } | undefined;
  const most = Math.ceil(image.width / 16);
  for (let columns = 1; columns <= most; columns++) {
    const share = columns === 1 ? 0 : Math.min(overlap, Math.floor(image.width / columns / 4));
    const width = Math.ceil((image.width + (columns - 1) * share) / columns);
    const tallest = tallestTile(width, image.height, working);
    if (tallest === 0) continue;
    const rowShare = Math.min(overlap, Math.floor(tallest / 4));
    const rows = tallest >= image.height ? 1 : Math.ceil((image.height - rowShare) / (tallest - rowShare));
    const height = rows === 1 ? image.height : Math.ceil((image.height + (rows - 1) * rowShare) / rows);
    if (best === undefined || columns * rows < best.columns * best.rows) best = { columns, rows, width, height };
    // More columns can only help while the tiles are limited by their width.
    if (rows === 1) break;
  }
  if (best === undefined) return { columns: 1, rows: 1, regions: [{ x: 0, y: 0, ...image }] };
  const { columns, rows, width, height } = best;
  const xs = starts(columns, image.width, width);
  const ys = starts(rows, image.height, height);
  return { columns, rows, regions: ys.flatMap((y) => xs.map((x) => ({ x, y, width, height }))) };
}
