import { MediaError } from './errors.js';
import { recognise } from './formats/registry.js';
import { planTiles as plan, type TilePlan } from './pipeline/tile-plan.js';
import { assertPixelBudget, resolveLimits } from './presets/limits.js';
import { process } from './process.js';
import { uprightSize } from './raster/orient.js';
import type { ProcessOptions, ProcessResult, Region } from './types.js';

/** Options of `tiles`: those of `process` (the preset, the model's working size, the byte limits), and the grid's. */
export interface TilesOptions extends Omit<ProcessOptions, 'region' | 'pages'> {
  /** Pixels each tile shares with its neighbour, so a line cut at one tile's edge is whole in the next. Default 64 (at most a quarter of a tile). */
  overlap?: number;
  /** Most tiles to make, in reading order; the regions of the rest are listed in `omitted`. Default: all. */
  maxTiles?: number;
  /** Also a small view of the whole image, to see where each tile sits: true (512 px) or its longest side. */
  overview?: boolean | number;
}

export interface Tile extends ProcessResult {
  /** Where the tile is in the original, in its upright pixels. */
  region: Region;
  /** Its place in the grid, from 0. */
  row: number;
  column: number;
}

export interface TilesResult {
  /** The tiles made, in reading order (left to right, then top to bottom). */
  tiles: Tile[];
  /** The grid the image was cut into. */
  columns: number;
  rows: number;
  /** Regions of the grid left out by `maxTiles`, in reading order. Empty when every tile was made. */
  omitted: Region[];
  /** The whole image, small, when asked. */
  overview?: ProcessResult;
  /** The original, upright. */
  original: { mediaType: ProcessResult['original']['mediaType']; width: number; height: number };
}

const DEFAULT_OVERLAP = 64;
const DEFAULT_OVERVIEW_EDGE = 512;

/**
 * Cuts a raster image into tiles the receiving model reads at full resolution: each tile is a region
 * (`process` with `region`) at most the working size of the options' preset or `workingSize`, so nothing is
 * shrunk; neighbours overlap a little; the grid has as few tiles as that allows. For a tall page capture or a
 * 5K screen, whose text a whole-image fit shrinks past reading. The caller chooses the cost: `maxTiles` caps it,
 * and says what was left out. SVGs and PDFs are refused (`E_INVALID_OPTIONS`): render a PDF page, or a region of
 * it, with `renderPdfPage`.
 */
export async function tiles(bytes: Uint8Array, options: TilesOptions = {}): Promise<TilesResult> {
  const { overlap, maxTiles, overview, ...processOptions } = options;
  const limits = resolveLimits(processOptions);
  const share = count('overlap', overlap, 0) ?? DEFAULT_OVERLAP;
  const most = count('maxTiles', maxTiles, 1);
  const overviewEdge =
    overview === true ? DEFAULT_OVERVIEW_EDGE : overview === false ? undefined : count('overview', overview, 1);
  if (!(bytes instanceof Uint8Array))
    throw new MediaError(
      'E_INVALID_INPUT',
      "tiles() takes the file's bytes as a Uint8Array (a Node Buffer is one). Wrap an ArrayBuffer with new Uint8Array(buffer).",
    );
  const format = recognise(bytes);
  if (format.kind !== 'raster') {
    if (format.kind === 'refused') await process(bytes, processOptions); // its own refusal says why
    throw new MediaError(
      'E_INVALID_OPTIONS',
      `tiles cuts raster images; this is a ${format.label} (${format.mediaType}). For a PDF, render its pages (or a region of one) with renderPdfPage; convert an SVG to PNG first.`,
      { option: 'tiles', mediaType: format.mediaType },
    );
  }
  const { info } = await format.probe(bytes);
  const upright = uprightSize(assertPixelBudget(info, limits), info.orientation);
  const grid = plan(upright, limits, share);
  const made = most === undefined ? grid.regions : grid.regions.slice(0, most);
  const cut: Tile[] = [];
  // One at a time: each tile holds only its region's pixels, and the codecs hold large buffers.
  for (const [index, region] of made.entries()) {
    const result = await process(bytes, { ...processOptions, region });
    cut.push({ ...result, region, row: Math.floor(index / grid.columns), column: index % grid.columns });
  }
  return {
    tiles: cut,
    columns: grid.columns,
    rows: grid.rows,
    omitted: grid.regions.slice(made.length),
    ...(overviewEdge !== undefined && {
      overview: await process(bytes, { ...processOptions, maxEdge: Math.min(overviewEdge, limits.maxEdge) }),
    }),
    original: { mediaType: info.mediaType, ...upright },
  };
}

/**
 * Where `tiles` would cut an image of this upright size for these options (the preset, the working size,
 * `overlap`): the grid and each tile's region, without reading a byte. To say what tiles would cost before
 * making them.
 */
export function planTiles(size: { width: number; height: number }, options: TilesOptions = {}): TilePlan {
  const { overlap, maxTiles: _maxTiles, overview: _overview, ...processOptions } = options;
  return plan(size, resolveLimits(processOptions), count('overlap', overlap, 0) ?? DEFAULT_OVERLAP);
}

/** A whole number of at least `least`, or undefined; anything else is E_INVALID_OPTIONS naming it. */
function count(name: string, value: number | undefined, least: number): number | undefined {
  if (value === undefined) return undefined;
  if (Number.isSafeInteger(value) && value >= least) return value;
  throw new MediaError(
    'E_INVALID_OPTIONS',
    `Expected ${name} to be a whole number of at least ${least} but received ${String(value)}.`,
    { option: name },
  );
}
