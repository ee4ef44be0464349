// Every image item of a HEIF-family file as libheif builds its images from them, for the checks it makes
// before decoding (libheif-rules.ts): types, references, properties, sizes, depths, grid descriptors.
import { isMediaError } from '../../errors.js';
import { find } from './boxes.js';
import { type GridDescriptor, gridDescriptor, type HeifItem, readItemGraph } from './item-graph.js';
import { imageExtent } from './properties.js';

/** One image item as a reader sees it before decoding, for the checks libheif makes (libheif-rules.ts). */
export interface HeifImageItem {
  id: number;
  type: string;
  hidden: boolean;
  /** References from this item, by type (`dimg` tiles, `thmb`, `auxl`, …). */
  references: ReadonlyMap<string, readonly number[]>;
  /** The types of its associated properties, in order. */
  propertyTypes: string[];
  /** Its pixi property's bits per channel, when it has one. */
  pixiBits?: number[];
  /** Its size, when it has an ispe property: the last one's, as libheif takes it. */
  size?: { width: number; height: number };
  /** The luma bit depth its hvcC property declares (HEVC items that have one). */
  codedBits?: number;
  /** A grid item's descriptor, or why it does not read. */
  grid?: GridDescriptor | { unreadable: string };
}

/**
 * Every item the iinf box describes, and the primary's id: the graph libheif builds its images from; and
 * where another reader may see a different graph (`ambiguities`).
 */
export function readHeifImageItems(
  bytes: Uint8Array,
  format: string,
): { primaryId: number; items: HeifImageItem[]; ambiguities: string[] } {
  const { reader, primaryId, infos, locations, references, ambiguities, properties, idat } = readItemGraph(
    bytes,
    format,
  );
  const descriptor = (item: HeifItem): HeifImageItem['grid'] => {
    try {
      return gridDescriptor(reader, item, idat);
    } catch (cause) {
      if (isMediaError(cause)) return { unreadable: cause.message };
      throw cause;
    }
  };
  const items = [...infos].map(([id, { type, hidden }]): HeifImageItem => {
    const boxes = properties.get(id) ?? [];
    const pixi = find(boxes, 'pixi');
    const channels = pixi && reader.u8(pixi.body + 4, 'pixi box');
    const size = imageExtent(reader, boxes.filter((box) => box.type === 'ispe').slice(-1));
    const hvcC = find(boxes, 'hvcC');
    return {
      id,
      type,
      hidden,
      references: references.get(id) ?? new Map(),
      propertyTypes: boxes.map((box) => box.type),
      ...(pixi && {
        pixiBits: Array.from({ length: channels ?? 0 }, (_, index) => reader.u8(pixi.body + 5 + index, 'pixi box')),
      }),
      ...(size && { size }),
      ...(hvcC && { codedBits: (reader.u8(hvcC.body + 17, 'hvcC box') & 7) + 8 }),
      ...(type === 'grid' && {
        grid: descriptor({ id, type, hidden, ...(locations.get(id) ?? { extents: [], inIdat: false }) }),
      }),
    };
  });
  return { primaryId, items, ambiguities };
}
