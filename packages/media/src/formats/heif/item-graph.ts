// The HEIF item graph (ISO/IEC 23008-12) as the `meta` box stores it, before any reader composes an image
// from it: the primary item (pitm), each item's type (iinf) and where its data is (iloc, idat), the
// references between items (iref) and their properties (iprp).
import { ByteReader, corrupt } from '../byte-reader.js';
import { type Box, childBoxes, find, MAX_BOXES, walkBoxes } from './boxes.js';

const MAX_ITEMS = 20_000;

const MAX_PROPERTIES = 4096;

/** A run of bytes in the file. */
export interface ByteRange {
  offset: number;
  length: number;
}

export interface HeifItem {
  id: number;
  /** Four-character item type: `hvc1`, `av01`, `grid`, `iden`, `iovl`, `Exif`, `mime`, … */
  type: string;
  hidden: boolean;
  /** Where the item's data is: absolute file ranges (construction method 0) or `idat` ranges (1). */
  extents: ByteRange[];
  inIdat: boolean;
}

/** An unsigned integer of `size` bytes (0, 4 or 8; iloc's field widths). */
function sized(reader: ByteReader, offset: number, size: number, what: string): number {
  if (size === 0) return 0;
  if (size === 4) return reader.u32be(offset, what);
  if (size === 8) return reader.u32be(offset, what) * 2 ** 32 + reader.u32be(offset + 4, what);
  throw corrupt(reader.format, `the iloc box uses ${size}-byte fields`);
}

function readPrimaryId(reader: ByteReader, box: Box | undefined): number {
  if (!box) throw corrupt(reader.format, 'it names no primary image (no pitm box)');
  const version = reader.u8(box.body, 'pitm box');
  return version === 0 ? reader.u16be(box.body + 4, 'pitm box') : reader.u32be(box.body + 4, 'pitm box');
}

function readItemInfos(
  reader: ByteReader,
  box: Box | undefined,
  ambiguities: string[] = [],
): Map<number, { type: string; hidden: boolean }> {
  const infos = new Map<number, { type: string; hidden: boolean }>();
  if (!box) throw corrupt(reader.format, 'it has no item information (no iinf box)');
  const version = reader.u8(box.body, 'iinf box');
  const countSize = version === 0 ? 2 : 4;
  const first = box.body + 4 + countSize;
  for (const entry of childBoxes(reader, first, box.end)) {
    if (entry.type !== 'infe' || infos.size >= MAX_ITEMS) continue;
    const entryVersion = reader.u8(entry.body, 'infe box');
    if (entryVersion < 2) continue; // versions 0 and 1 describe files, not image items
    const hidden = (reader.u8(entry.body + 3, 'infe box') & 1) === 1;
    const idSize = entryVersion === 2 ? 2 : 4;
    const id = idSize === 2 ? reader.u16be(entry.body + 4, 'infe box') : reader.u32be(entry.body + 4, 'infe box');
    const type = reader.ascii(entry.body + 4 + idSize + 2, 4, 'infe box');
    // libheif keeps the first description of an item, this reader the last: a reader-dependent file.
    if (infos.has(id)) ambiguities.push(`its iinf box describes item ${id} twice`);
    infos.set(id, { type, hidden });
  }
  return infos;
}

function readLocations(
  reader: ByteReader,
  box: Box | undefined,
): Map<number, { extents: HeifItem['extents']; inIdat: boolean }> {
  const locations = new Map<number, { extents: HeifItem['extents']; inIdat: boolean }>();
  if (!box) return locations;
  let at = box.body;
  const version = reader.u8(at, 'iloc box');
  const sizes = reader.u16be(at + 4, 'iloc box');
  const offsetSize = sizes >> 12;
  const lengthSize = (sizes >> 8) & 15;
  const baseOffsetSize = (sizes >> 4) & 15;
  const indexSize = version === 1 || version === 2 ? sizes & 15 : 0;
  at += 6;
  const count = version < 2 ? reader.u16be(at, 'iloc box') : reader.u32be(at, 'iloc box');
  at += version < 2 ? 2 : 4;
  if (count > MAX_ITEMS) throw corrupt(reader.format, `its iloc box lists ${count} items`);
  let extentsInAll = 0;
  for (let index = 0; index < count; index++) {
    const id = version < 2 ? reader.u16be(at, 'iloc entry') : reader.u32be(at, 'iloc entry');
    at += version < 2 ? 2 : 4;
    let method = 0;
    if (version === 1 || version === 2) {
      method = reader.u16be(at, 'iloc entry') & 15;
      at += 2;
    }
    at += 2; // data_reference_index: 0 means this file
    const base = sized(reader, at, baseOffsetSize, 'iloc entry');
    at += baseOffsetSize;
    const extentCount = reader.u16be(at, 'iloc entry');
    at += 2;
    // Fields may be 0 bytes wide, so the box's size does not bound how many extents it declares.
    extentsInAll += extentCount;
    if (extentsInAll > MAX_ITEMS) throw corrupt(reader.format, `its iloc box declares over ${MAX_ITEMS} extents`);
    const extents: HeifItem['extents'] = [];
    for (let extent = 0; extent < extentCount; extent++) {
      at += indexSize;
      const offset = sized(reader, at, offsetSize, 'iloc extent');
      at += offsetSize;
      const length = sized(reader, at, lengthSize, 'iloc extent');
      at += lengthSize;
      extents.push({ offset: base + offset, length });
    }
    locations.set(id, { extents, inIdat: method === 1 });
  }
  return locations;
}

/**
 * iref: from-item → reference type → to-items, in order. Read as libheif reads them: one after another,
 * each as long as its item count makes it, whatever its box header's size says. A size that disagrees is an
 * ambiguity (another reader would follow the sizes and see other references), and so are references that
 * run past the iref box.
 */
function readReferences(
  reader: ByteReader,
  box: Box | undefined,
  ambiguities: string[] = [],
): Map<number, Map<string, number[]>> {
  const references = new Map<number, Map<string, number[]>>();
  if (!box) return references;
  const idSize = reader.u8(box.body, 'iref box') === 0 ? 2 : 4;
  const id = (at: number) => (idSize === 2 ? reader.u16be(at, 'iref box') : reader.u32be(at, 'iref box'));
  let at = box.body + 4;
  for (let boxes = 0; at + 8 <= box.end; boxes++) {
    if (boxes >= MAX_BOXES) throw corrupt(reader.format, 'its iref box holds more references than any real file');
    const size = reader.u32be(at, 'iref box');
    const type = reader.ascii(at + 4, 4, 'iref box');
    const body = at + (size === 1 ? 16 : 8);
    const from = id(body);
    const count = reader.u16be(body + idSize, 'iref box');
    const end = body + idSize + 2 + count * idSize;
    if (end > box.end) {
      ambiguities.push(`its ${JSON.stringify(type)} reference from item ${from} runs past its iref box`);
      break;
    }
    if (size !== end - at)
      ambiguities.push(`its ${JSON.stringify(type)} reference from item ${from} does not fill its box`);
    const to: number[] = [];
    for (let index = 0; index < count; index++) to.push(id(body + idSize + 2 + index * idSize));
    const byType = references.get(from) ?? new Map<string, number[]>();
    byType.set(type, [...(byType.get(type) ?? []), ...to]);
    references.set(from, byType);
    at = end;
  }
  return references;
}

/** Each item's properties, in association order (the order transformations apply in). */
function readProperties(reader: ByteReader, iprp: Box | undefined): Map<number, Box[]> {
  const byItem = new Map<number, Box[]>();
  if (!iprp) return byItem;
  const children = childBoxes(reader, iprp.body, iprp.end);
  const ipco = find(children, 'ipco');
  if (!ipco) return byItem;
  const properties = childBoxes(reader, ipco.body, ipco.end).slice(0, MAX_PROPERTIES);
  for (const ipma of children.filter((box) => box.type === 'ipma')) {
    const version = reader.u8(ipma.body, 'ipma box');
    const wideIndex = (reader.u8(ipma.body + 3, 'ipma box') & 1) === 1;
    let at = ipma.body + 4;
    const count = reader.u32be(at, 'ipma box');
    at += 4;
    if (count > MAX_ITEMS) throw corrupt(reader.format, `its ipma box lists ${count} items`);
    for (let entry = 0; entry < count; entry++) {
      const item = version < 1 ? reader.u16be(at, 'ipma entry') : reader.u32be(at, 'ipma entry');
      at += version < 1 ? 2 : 4;
      const associations = reader.u8(at, 'ipma entry');
      at += 1;
      const list = byItem.get(item) ?? [];
      for (let index = 0; index < associations; index++) {
        const value = wideIndex ? reader.u16be(at, 'ipma entry') & 0x7fff : reader.u8(at, 'ipma entry') & 0x7f;
        at += wideIndex ? 2 : 1;
        const property = properties[value - 1]; // 1-based; 0 means none
        if (property) list.push(property);
      }
      byItem.set(item, list);
    }
  }
  return byItem;
}

/** The `meta` box's item graph as it is stored: items, where their data is, references and properties. */
export interface ItemGraph {
  reader: ByteReader;
  primaryId: number;
  infos: Map<number, { type: string; hidden: boolean }>;
  locations: ReturnType<typeof readLocations>;
  references: Map<number, Map<string, number[]>>;
  /** Where readers may see different graphs in this file (an item described twice, references mis-sized). */
  ambiguities: string[];
  properties: Map<number, Box[]>;
  /** The `idat` box's payload, for items stored there. */
  idat: ByteRange | undefined;
}

export function readItemGraph(bytes: Uint8Array, format: string): ItemGraph {
  const reader = new ByteReader(bytes, format);
  const meta = find(walkBoxes(reader, 0, bytes.length, true).boxes, 'meta');
  if (!meta) throw corrupt(format, 'it has no meta box, so no image items');
  const boxes = childBoxes(reader, meta.body + 4, meta.end); // meta is a full box
  const idatBox = find(boxes, 'idat');
  const ambiguities: string[] = [];
  return {
    reader,
    primaryId: readPrimaryId(reader, find(boxes, 'pitm')),
    infos: readItemInfos(reader, find(boxes, 'iinf'), ambiguities),
    locations: readLocations(reader, find(boxes, 'iloc')),
    references: readReferences(reader, find(boxes, 'iref'), ambiguities),
    ambiguities,
    properties: readProperties(reader, find(boxes, 'iprp')),
    idat: idatBox && { offset: idatBox.body, length: idatBox.end - idatBox.body },
  };
}

/** Where a small item's data is (grid descriptors are 8 or 12 bytes in one extent). */
function itemData(reader: ByteReader, item: HeifItem, idat: ByteRange | undefined): ByteRange {
  const extent = item.extents[0];
  if (!extent) throw corrupt(reader.format, `item ${item.id} has no data`);
  if (item.inIdat && !idat) throw corrupt(reader.format, `item ${item.id} lies in an idat box the file lacks`);
  const offset = item.inIdat && idat ? idat.offset + extent.offset : extent.offset;
  reader.need(offset, extent.length, `item ${item.id} data`);
  return { offset, length: extent.length };
}

export interface GridDescriptor {
  rows: number;
  columns: number;
  outputWidth: number;
  outputHeight: number;
}

export function gridDescriptor(reader: ByteReader, grid: HeifItem, idat: ByteRange | undefined): GridDescriptor {
  const data = itemData(reader, grid, idat);
  const flags = reader.u8(data.offset + 1, 'grid descriptor');
  const wide = (flags & 1) === 1;
  if (data.length < (wide ? 12 : 8)) throw corrupt(reader.format, `its grid descriptor has ${data.length} bytes`);
  return {
    rows: reader.u8(data.offset + 2, 'grid descriptor') + 1,
    columns: reader.u8(data.offset + 3, 'grid descriptor') + 1,
    outputWidth: wide
      ? reader.u32be(data.offset + 4, 'grid descriptor')
      : reader.u16be(data.offset + 4, 'grid descriptor'),
    outputHeight: wide
      ? reader.u32be(data.offset + 8, 'grid descriptor')
      : reader.u16be(data.offset + 6, 'grid descriptor'),
  };
}
