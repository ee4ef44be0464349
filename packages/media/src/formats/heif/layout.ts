// The primary image of a HEIF-family file as readers compose it from the item graph, without decoding: how
// it is stored (one coded image, or a grid of tiles), its size, bit depth, transformations, colour profile
// and alpha. HEIC and AVIF share this container; the probe, the colour profile and the decoders read it here.
import type { Orientation } from '../../types.js';
import { ByteReader, corrupt } from '../byte-reader.js';
import { concatBytes } from '../bytes.js';
import type { Box } from './boxes.js';
import { type ByteRange, gridDescriptor, type HeifItem, readItemGraph } from './item-graph.js';
import {
  ALPHA_TYPES,
  auxiliaryType,
  bitDepth,
  cropOf,
  type HeifCrop,
  type HeifNclx,
  iccProfileOf,
  imageExtent,
  nclxOf,
  orientationOf,
} from './properties.js';

export type { HeifItem } from './item-graph.js';
export type { HeifCrop, HeifNclx } from './properties.js';

export interface HeifGrid {
  rows: number;
  columns: number;
  outputWidth: number;
  outputHeight: number;
  /** Tile item IDs, row by row. */
  tiles: number[];
  /** The first tile's size (all tiles of a grid share it). */
  tileWidth: number;
  tileHeight: number;
}

export interface HeifLayout {
  primary: HeifItem;
  /** Stored size of the primary image (a grid's output size), before transformations. */
  width: number;
  height: number;
  /** Bits per sample of the coded image (8, 10, 12); undefined when no property says. */
  bitDepth?: number;
  /** irot and imir as an EXIF orientation (1 upright). Exif metadata orientation is not used: HEIF's
   * transformations are normative and readers that apply both turn the picture twice. */
  orientation: Orientation;
  crop?: HeifCrop;
  grid?: HeifGrid;
  /** An alpha auxiliary image belongs to the primary image. */
  hasAlpha: boolean;
  /** The embedded ICC profile (colr `prof`/`rICC`), when there is one. */
  iccProfile?: Uint8Array;
  /** Every image item the primary is made of (itself, its tiles, its alpha), for integrity checks. */
  parts: HeifItem[];
  /** Where every item the iloc box locates has its data (thumbnails, metadata and depth images too). */
  locations: { id: number; extents: HeifItem['extents']; inIdat: boolean }[];
  /** The file's `idat` payload range, for items stored there. */
  idat?: ByteRange;
  /** The alpha auxiliary image (a coded item, or a grid of them), when there is one. */
  alpha?: { item: HeifItem; grid?: HeifGrid };
  /** An iref `prem`: the colour is premultiplied by the alpha image. */
  premultiplied: boolean;
  /** The primary image's (or its first tile's) colr `nclx`: how its samples map to colour (ITU-T H.273). */
  nclx?: HeifNclx;
}

/** Reads the item graph of a HEIF-family file (`format` names it in errors: "HEIC", "AVIF", …). */
export function readHeifLayout(bytes: Uint8Array, format: string): HeifLayout {
  const { reader, primaryId, infos, locations, references, properties, idat } = readItemGraph(bytes, format);

  const item = (id: number): HeifItem => {
    const info = infos.get(id);
    if (!info) throw corrupt(format, `image item ${id} is referenced but not described`);
    const location = locations.get(id) ?? { extents: [], inIdat: false };
    return { id, type: info.type, hidden: info.hidden, ...location };
  };
  const primary = item(primaryId);
  const primaryProperties = properties.get(primaryId) ?? [];
  const parts: HeifItem[] = [primary];

  let size = imageExtent(reader, primaryProperties);
  let grid: HeifGrid | undefined;
  let depth = bitDepth(reader, primaryProperties);
  if (primary.type === 'grid') {
    grid = readGrid(reader, primary, references, properties, idat);
    size = { width: grid.outputWidth, height: grid.outputHeight };
    depth ??= bitDepth(reader, properties.get(grid.tiles[0] ?? -1) ?? []);
    for (const tile of grid.tiles) parts.push(item(tile));
  }
  if (!size || size.width === 0 || size.height === 0)
    throw corrupt(format, 'its primary image declares no size (no ispe property)');

  let hasAlpha = false;
  let alpha: HeifLayout['alpha'];
  for (const [from, byType] of references) {
    if (!byType.get('auxl')?.includes(primaryId)) continue;
    if (!ALPHA_TYPES.has(auxiliaryType(reader, properties.get(from) ?? []) ?? '')) continue;
    hasAlpha = true;
    const alphaItem = item(from);
    parts.push(alphaItem);
    if (alpha) continue;
    if (alphaItem.type === 'grid') {
      const alphaGrid = readGrid(reader, alphaItem, references, properties, idat);
      for (const tile of alphaGrid.tiles) parts.push(item(tile));
      alpha = { item: alphaItem, grid: alphaGrid };
    } else {
      alpha = { item: alphaItem };
    }
  }
  const premultiplied =
    alpha !== undefined && (references.get(primaryId)?.get('prem')?.includes(alpha.item.id) ?? false);
  const nclx = nclxOf(reader, primaryProperties) ?? (grid && nclxOf(reader, properties.get(grid.tiles[0] ?? -1) ?? []));

  const crop = cropOf(reader, primaryProperties, size.width, size.height);
  const iccProfile = iccProfileOf(reader, primaryProperties);
  return {
    primary,
    width: size.width,
    height: size.height,
    ...(depth !== undefined && { bitDepth: depth }),
    orientation: orientationOf(reader, primaryProperties),
    ...(crop && { crop }),
    ...(grid && { grid }),
    hasAlpha,
    ...(iccProfile && { iccProfile }),
    parts,
    locations: [...locations].map(([id, location]) => ({ id, ...location })),
    ...(idat && { idat }),
    ...(alpha && { alpha }),
    premultiplied,
    ...(nclx && { nclx }),
  };
}

/** A grid item's descriptor and tiles (ISO/IEC 23008-12 §6.6.2.3). */
function readGrid(
  reader: ByteReader,
  grid: HeifItem,
  references: Map<number, Map<string, number[]>>,
  properties: Map<number, Box[]>,
  idat: ByteRange | undefined,
): HeifGrid {
  const format = reader.format;
  const tiles = references.get(grid.id)?.get('dimg') ?? [];
  const { rows, columns, outputWidth, outputHeight } = gridDescriptor(reader, grid, idat);
  if (tiles.includes(grid.id)) throw corrupt(format, `its grid image ${grid.id} lists itself as a tile`);
  if (tiles.length !== rows * columns)
    throw corrupt(format, `its ${columns}×${rows} grid references ${tiles.length} tiles`);
  const tileSize = imageExtent(reader, properties.get(tiles[0] ?? -1) ?? []);
  if (!tileSize) throw corrupt(format, 'its grid tiles declare no size (no ispe property)');
  if (tileSize.width * columns < outputWidth || tileSize.height * rows < outputHeight) {
    throw corrupt(
      format,
      `its ${columns}×${rows} tiles of ${tileSize.width}×${tileSize.height} do not cover ${outputWidth}×${outputHeight}`,
    );
  }
  return { rows, columns, outputWidth, outputHeight, tiles, tileWidth: tileSize.width, tileHeight: tileSize.height };
}

/** Whether every byte the primary image is made of lies inside the file (a cut-off file fails this). */
export function heifPartsPresent(layout: HeifLayout, fileLength: number): boolean {
  return layout.parts.every((part) => heifDataPresent(layout, part, fileLength));
}

/** Whether every extent of an item's data lies inside the file (or inside its idat box, for items stored there). */
export function heifDataPresent(
  layout: HeifLayout,
  item: { extents: HeifItem['extents']; inIdat: boolean },
  fileLength: number,
): boolean {
  return item.extents.every(({ offset, length }) => {
    const start = item.inIdat ? (layout.idat?.offset ?? Infinity) + offset : offset;
    const end = item.inIdat ? (layout.idat ? layout.idat.offset + layout.idat.length : -1) : fileLength;
    return start + length <= end;
  });
}

/** A coded item's bytes, its extents joined (a decoder takes one contiguous bitstream). */
export function heifItemBytes(bytes: Uint8Array, layout: HeifLayout, item: HeifItem, format: string): Uint8Array {
  const reader = new ByteReader(bytes, format);
  const ranges = item.extents.map(({ offset, length }) => {
    if (item.inIdat && !layout.idat) throw corrupt(format, `item ${item.id} lies in an idat box the file lacks`);
    const start = item.inIdat && layout.idat ? layout.idat.offset + offset : offset;
    reader.need(start, length, `item ${item.id} data`);
    return bytes.subarray(start, start + length);
  });
  if (ranges.length === 1 && ranges[0]) return ranges[0];
  return concatBytes(ranges);
}
