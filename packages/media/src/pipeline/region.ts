// A region of the image: the part `process` cuts out before it fits, so a model can look closer at what a
// whole-image fit shrinks past reading. Given in the upright original's pixels (what the user and the model
// see), checked against the size the header declares, and mapped to the stored pixels the decoder delivers.
import { MediaError } from '../errors.js';
import type { Size } from '../raster/contract.js';
import type { Orientation, Region } from '../types.js';

/** The `region` option's shape, checked before anything is read: whole pixels, a start at 0 or more, a size of 1 or more. */
export function assertRegionShape(region: unknown): Region | undefined {
  if (region === undefined) return undefined;
  const fields = ['x', 'y', 'width', 'height'] as const;
  const valid =
    typeof region === 'object' &&
    region !== null &&
    fields.every((field) => {
      const value = (region as Record<string, unknown>)[field];
      return Number.isSafeInteger(value) && (value as number) >= (field === 'x' || field === 'y' ? 0 : 1);
    });
  if (!valid)
    throw new MediaError(
      'E_INVALID_OPTIONS',
      `Expected region to be { x, y, width, height } in whole pixels of the upright image (x, y ≥ 0; width, height ≥ 1), but received ${JSON.stringify(region)}.`,
      { option: 'region' },
    );
  const { x, y, width, height } = region as Region;
  return { x, y, width, height };
}

/** Refuses a region that reaches past the image, naming the image's size so the caller can correct it. */
export function assertRegionInside(region: Region, upright: Size): void {
  if (region.x + region.width <= upright.width && region.y + region.height <= upright.height) return;
  throw new MediaError(
    'E_INVALID_OPTIONS',
    `The region ${describeRegion(region)} reaches past the image, which is ${upright.width}×${upright.height} px upright: keep x + width ≤ ${upright.width} and y + height ≤ ${upright.height}.`,
    { option: 'region', region, width: upright.width, height: upright.height },
  );
}

/** "x 10, y 20, 300×200" */
export function describeRegion({ x, y, width, height }: Region): string {
  return `x ${x}, y ${y}, ${width}×${height}`;
}

/**
 * `crop` (stored pixels) in the pixels of a decode that delivers `delivered` for the `stored` image (fewer,
 * when JPEG's DCT scaling shrank it): the rows and columns that hold it, at least one of each.
 */
export function scaledRegion(crop: Region, stored: Size, delivered: Size): Region {
  const sx = delivered.width / stored.width;
  const sy = delivered.height / stored.height;
  const x = Math.floor(crop.x * sx);
  const y = Math.floor(crop.y * sy);
  const right = Math.max(x + 1, Math.min(delivered.width, Math.ceil((crop.x + crop.width) * sx)));
  const bottom = Math.max(y + 1, Math.min(delivered.height, Math.ceil((crop.y + crop.height) * sy)));
  return { x, y, width: right - x, height: bottom - y };
}

/** The region of the upright image as a rectangle of the stored pixels (`stored`: the size as stored). */
export function storedRegion(region: Region, stored: Size, orientation: Orientation): Region {
  const { x, y, width, height } = region;
  const right = (w: number) => stored.width - w; // a start measured from the other edge
  const bottom = (h: number) => stored.height - h;
  switch (orientation) {
    case 1:
      return { x, y, width, height };
    case 2:
      return { x: right(x + width), y, width, height };
    case 3:
      return { x: right(x + width), y: bottom(y + height), width, height };
    case 4:
      return { x, y: bottom(y + height), width, height };
    case 5:
      return { x: y, y: x, width: height, height: width };
    case 6:
      return { x: y, y: bottom(x + width), width: height, height: width };
    case 7:
      return { x: right(y + height), y: bottom(x + width), width: height, height: width };
    case 8:
      return { x: right(y + height), y: x, width: height, height: width };
    default: {
      const unreachable: never = orientation;
      throw new Error(`orientation ${String(unreachable)}`);
    }
  }
}
