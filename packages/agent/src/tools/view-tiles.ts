import { tiles, type Region, type TilesResult } from '@glimpse/media';
import { uprightOriginal } from '../results/notes.js';
import { toMediaPart } from '../results/to-media-part.js';
import type { FitOptions } from '../route/fit-options.js';
import type { Part } from '../types.js';

/** Tiles one `view_file` call returns at most, unless the app says otherwise (`maxTiles`): a 1440×9000 page is 12 for Claude. */
export const DEFAULT_MAX_TILES = 16;

/** "x 0, y 776, 1440x840" */
const describe = ({ x, y, width, height }: Region) => `x ${x}, y ${y}, ${width}x${height}`;

/**
 * An image as tiles at the model's working size, in reading order: a line saying how it was cut, then per
 * tile a label with its place in the original (and how to map coordinates back) before its image; what the
 * tile budget left out is listed with a way to ask for it.
 */
export async function viewTiles(
  bytes: Uint8Array,
  name: string,
  fit: FitOptions & { maxInputPixels?: number },
  maxTiles: number,
): Promise<{ parts: Part[]; result: TilesResult }> {
  const result = await tiles(bytes, { ...fit, maxTiles });
  const made = result.tiles;
  const first = made[0];
  const original = first === undefined ? result.original : uprightOriginal(first);
  const total = made.length + result.omitted.length;
  const head =
    `${name} (${original.width}x${original.height}) in ${total} tile${total === 1 ? '' : 's'} (${result.columns} across, ${result.rows} down), ` +
    `each at full resolution and overlapping its neighbours a little, in reading order. ` +
    `A point (u, v) in a tile is (x + u, y + v) in the original, with the tile's x and y below.`;
  const parts: Part[] = [{ type: 'text', text: head }];
  made.forEach((tile, index) => {
    parts.push({ type: 'text', text: `[tile ${index + 1} of ${total}: ${describe(tile.region)}]` });
    parts.push(toMediaPart(tile, name));
  });
  if (result.omitted.length > 0) {
    const from = result.omitted[0]!;
    const to = result.omitted.at(-1)!;
    parts.push({
      type: 'text',
      text: `[left out by the tile budget (${maxTiles}): tiles ${made.length + 1}–${total}, from y ${from.y} to ${to.y + to.height}. View them with region, e.g. {"x": ${from.x}, "y": ${from.y}, "width": ${from.width}, "height": ${from.height}}]`,
    });
  }
  return { parts, result };
}
