import type { Size } from './contract.js';
import type { Orientation, Raster } from '../types.js';

/** Whether an orientation swaps width and height (the 90° and 270° turns, mirrored or not). */
export function swapsAxes(orientation: Orientation): boolean {
  return orientation >= 5;
}

/** The size of an image stored as `stored` once `orientation` turns it upright: the size it is shown at. */
export function uprightSize(stored: Size, orientation: Orientation): Size {
  return swapsAxes(orientation) ? { width: stored.height, height: stored.width } : stored;
}

/** Where stored pixel (0, y) lands in the upright raster, and how far apart (in pixels) the row's pixels land. */
function placeRow(orientation: Orientation, { width: w, height: h }: Size, y: number): { start: number; step: number } {
  switch (orientation) {
    case 1:
      return { start: y * w, step: 1 };
    case 2:
      return { start: y * w + w - 1, step: -1 }; // mirrored horizontally
    case 3:
      return { start: (h - 1 - y) * w + w - 1, step: -1 }; // turned 180°
    case 4:
      return { start: (h - 1 - y) * w, step: 1 }; // mirrored vertically
    case 5:
      return { start: y, step: h }; // transposed
    case 6:
      return { start: h - 1 - y, step: h }; // needs 90° clockwise
    case 7:
      return { start: (w - 1) * h + h - 1 - y, step: -h }; // transversed
    case 8:
      return { start: (w - 1) * h + y, step: -h }; // needs 90° counter-clockwise
    default: {
      const unreachable: never = orientation;
      throw new Error(`orientation ${String(unreachable)}`);
    }
  }
}

/** Rows as stored go in; the upright raster comes out. */
export interface OrientedRaster {
  write(pixels: Uint8Array, rows: number): void;
  /** The upright raster, once every stored row has been written. */
  raster(): Raster;
}

/**
 * Places rows of a `stored`-size image, as they arrive, where EXIF `orientation` puts them upright, so
 * turning an image costs no second copy of it. `bottomUp`: the rows arrive last row first.
 */
export function orientedRaster(
  orientation: Orientation,
  stored: Size,
  bottomUp = false,
  allocate: (bytes: number) => Uint8Array = (bytes) => new Uint8Array(bytes),
): OrientedRaster {
  const swap = swapsAxes(orientation);
  const width = swap ? stored.height : stored.width;
  const height = swap ? stored.width : stored.height;
  const data = allocate(width * height * 4);
  const out = new Uint32Array(data.buffer, data.byteOffset, width * height);
  const rowBytes = stored.width * 4;
  let received = 0;
  let aligned: Uint32Array | undefined;
  return {
    write(pixels, rows) {
      if (received + rows > stored.height) throw new Error(`more than ${stored.height} rows were written`);
      for (let r = 0; r < rows; r++, received++) {
        const y = bottomUp ? stored.height - 1 - received : received;
        const row = pixels.subarray(r * rowBytes, (r + 1) * rowBytes);
        if (orientation === 1) {
          data.set(row, y * rowBytes);
          continue;
        }
        let source: Uint32Array;
        if (row.byteOffset % 4 === 0) {
          source = new Uint32Array(row.buffer, row.byteOffset, stored.width);
        } else {
          aligned ??= new Uint32Array(stored.width);
          new Uint8Array(aligned.buffer).set(row);
          source = aligned;
        }
        const { start, step } = placeRow(orientation, stored, y);
        for (let x = 0, at = start; x < stored.width; x++, at += step) out[at] = source[x]!;
      }
    },
    raster() {
      if (received !== stored.height) throw new Error(`${received} of ${stored.height} rows were written`);
      return { data, width, height };
    },
  };
}

/**
 * Turns a raster stored with EXIF `orientation` upright. Each stored pixel goes where the tag maps it;
 * 1 returns the input unchanged.
 */
export function applyOrientation(raster: Raster, orientation: Orientation): Raster {
  if (orientation === 1) return raster;
  const upright = orientedRaster(orientation, raster);
  upright.write(raster.data, raster.height);
  return upright.raster();
}
