// The HEIF item graph (ISO/IEC 23008-12 over ISO BMFF), read from the `meta` box without decoding: which
// item is the primary image, how it is stored (one coded image, or a grid of tiles), its size, bit depth,
// transformations, colour profile and alpha. HEIC and AVIF share this container; the probe, the ICC
// reader and the decoders all read it here.
import { ByteReader, corrupt } from '../byte-reader.js';
import type { Orientation } from '../../types.js';
import { concatBytes } from '../bytes.js';
import { isMediaError } from '../../errors.js';

/** Boxes and items are few in real files; the caps bound every loop on hostile input. */
const MAX_BOXES = 4096;
const MAX_ITEMS = 20_000;
const MAX_PROPERTIES = 4096;

export interface HeifItem {
  id: number;
  /** Four-character item type: `hvc1`, `av01`, `grid`, `iden`, `iovl`, `Exif`, `mime`, … */
  type: string;
  hidden: boolean;
  /** Where the item's data is: absolute file ranges (construction method 0) or `idat` ranges (1). */
  extents: { offset: number; length: number }[];
  inIdat: boolean;
}

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

/** Clean aperture: the crop of the stored image that is meant to be shown. */
export interface HeifCrop {
  x: number;
  y: number;
  width: number;
  height: number;
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
  idat?: { offset: number; length: number };
  /** The alpha auxiliary image (a coded item, or a grid of them), when there is one. */
  alpha?: { item: HeifItem; grid?: HeifGrid };
  /** An iref `prem`: the colour is premultiplied by the alpha image. */
  premultiplied: boolean;
  /** The primary image's (or its first tile's) colr `nclx`: how its samples map to colour (ITU-T H.273). */
  nclx?: HeifNclx;
}

/** Colour description code points (ITU-T H.273) and whether samples use the full range. */
export interface HeifNclx {
  primaries: number;
  transfer: number;
  matrix: number;
  fullRange: boolean;
}

interface Box {
  type: string;
  start: number;
  /** First byte after the header (and after version/flags for full boxes, which callers skip). */
  body: number;
  end: number;
}

/** A box type is four printable ASCII characters; anything else after the last box is stray bytes. */
function isBoxType(type: string): boolean {
  return /^[\x20-\x7e]{4}$/.test(type);
}

/** The boxes directly inside [start, end). */
function childBoxes(reader: ByteReader, start: number, end: number): Box[] {
  return walkBoxes(reader, start, end, false).boxes;
}

/** The boxes a walk read, and where it stopped before the end (see walkBoxes). */
interface BoxWalk {
  boxes: Box[];
  /** Where bytes stop reading as boxes, when that is before the end. */
  tail?: number;
  /** A box at `tail` whose size runs past the end (a text type: a box cut short, not noise). */
  tailProblem?: string;
}

/**
 * The boxes in [start, end). At the file's top level (`fileLevel`), what follows the meta box and does not
 * read as a box (a type that is not text, a size past the end) ends the walk at `tail`: libheif ignores such
 * trailing bytes, and whether the image was cut short is told by its items' data (heifDataPresent).
 */
function walkBoxes(reader: ByteReader, start: number, end: number, fileLevel: boolean): BoxWalk {
  const boxes: Box[] = [];
  let afterMeta = false;
  let offset = start;
  while (offset + 8 <= end) {
    if (boxes.length >= MAX_BOXES) throw corrupt(reader.format, 'it holds more boxes than any real file');
    let size = reader.u32be(offset, 'box header');
    const type = reader.ascii(offset + 4, 4, 'box type');
    const name = JSON.stringify(type);
    let header = 8;
    if (size === 1) {
      if (afterMeta && offset + 16 > end) return { boxes, tail: offset };
      const high = reader.u32be(offset + 8, 'box size');
      size = high * 2 ** 32 + reader.u32be(offset + 12, 'box size');
      header = 16;
    } else if (size === 0) {
      size = end - offset;
    }
    const problem =
      size < header
        ? `the ${name} box at byte ${offset} declares ${size} bytes`
        : offset + size > end
          ? `the ${name} box runs past the end of the file (it is cut short)`
          : undefined;
    if (afterMeta && (!isBoxType(type) || problem)) {
      return { boxes, tail: offset, ...(isBoxType(type) && { tailProblem: problem }) };
    }
    if (size < header) throw corrupt(reader.format, problem!);
    // A box may run past the end only when the file was cut short: that is truncation, named as such.
    if (offset + size > end) reader.need(offset, size, `${name} box`);
    boxes.push({ type, start: offset, body: offset + header, end: offset + size });
    afterMeta ||= fileLevel && type === 'meta';
    offset += size;
  }
  return offset < end ? { boxes, tail: offset } : { boxes };
}

function find(boxes: Box[], type: string): Box | undefined {
  return boxes.find((box) => box.type === type);
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

function imageExtent(reader: ByteReader, properties: Box[]): { width: number; height: number } | undefined {
  const ispe = find(properties, 'ispe');
  if (!ispe) return undefined;
  return { width: reader.u32be(ispe.body + 4, 'ispe box'), height: reader.u32be(ispe.body + 8, 'ispe box') };
}

function bitDepth(reader: ByteReader, properties: Box[]): number | undefined {
  const pixi = find(properties, 'pixi');
  if (pixi && reader.u8(pixi.body + 4, 'pixi box') > 0) return reader.u8(pixi.body + 5, 'pixi box');
  const hvcC = find(properties, 'hvcC');
  if (hvcC) return (reader.u8(hvcC.body + 17, 'hvcC box') & 7) + 8;
  const av1C = find(properties, 'av1C');
  if (av1C) {
    const flags = reader.u8(av1C.body + 2, 'av1C box');
    const high = (flags & 0x40) !== 0;
    const twelve = (flags & 0x20) !== 0;
    return high ? (twelve ? 12 : 10) : 8;
  }
  return undefined;
}

/** Transformations as 2×2 matrices on (x right, y down): [a, b, c, d] maps (x, y) to (ax + by, cx + dy). */
type Matrix = readonly [number, number, number, number];
const multiply = (p: Matrix, q: Matrix): Matrix => [
  p[0] * q[0] + p[1] * q[2],
  p[0] * q[1] + p[1] * q[3],
  p[2] * q[0] + p[3] * q[2],
  p[2] * q[1] + p[3] * q[3],
];
/** What each EXIF orientation does to the stored image to show it. */
const EXIF_MATRICES: Readonly<Record<Orientation, Matrix>> = {
  1: [1, 0, 0, 1],
  2: [-1, 0, 0, 1],
  3: [-1, 0, 0, -1],
  4: [1, 0, 0, -1],
  5: [0, 1, 1, 0],
  6: [0, -1, 1, 0],
  7: [0, -1, -1, 0],
  8: [0, 1, -1, 0],
};
const QUARTER_TURN_ANTICLOCKWISE: Matrix = [0, 1, -1, 0];

/**
 * irot (anticlockwise quarter turns) and imir, in property order, as one EXIF value. imir axis 0 swaps
 * top and bottom, 1 left and right: HEIF's 2nd edition wording, and what libheif (and so Debian's
 * heif-convert, the tests' oracle) does.
 */
function orientationOf(reader: ByteReader, properties: Box[]): Orientation {
  let transform: Matrix = EXIF_MATRICES[1];
  for (const property of properties) {
    if (property.type === 'irot') {
      const turns = reader.u8(property.body, 'irot box') & 3;
      for (let turn = 0; turn < turns; turn++) transform = multiply(QUARTER_TURN_ANTICLOCKWISE, transform);
    } else if (property.type === 'imir') {
      const axis = reader.u8(property.body, 'imir box') & 1;
      transform = multiply(axis === 0 ? EXIF_MATRICES[4] : EXIF_MATRICES[2], transform);
    }
  }
  for (const [value, matrix] of Object.entries(EXIF_MATRICES)) {
    if (matrix.every((entry, index) => entry === transform[index])) return Number(value) as Orientation;
  }
  return 1;
}

/** clap: a centred crop given as fractions; ISO BMFF rounds its edges like this (as libheif does). */
function cropOf(reader: ByteReader, properties: Box[], width: number, height: number): HeifCrop | undefined {
  const clap = find(properties, 'clap');
  if (!clap) return undefined;
  const fraction = (index: number) => {
    const numerator = reader.u32be(clap.body + index * 8, 'clap box') | 0; // signed
    const denominator = reader.u32be(clap.body + index * 8 + 4, 'clap box');
    if (denominator === 0) throw corrupt(reader.format, 'its clean aperture divides by zero');
    return numerator / denominator;
  };
  const [cropWidth, cropHeight, horizontalOffset, verticalOffset] = [
    fraction(0),
    fraction(1),
    fraction(2),
    fraction(3),
  ];
  const left = Math.max(0, Math.round(horizontalOffset + (width - 1) / 2 - (cropWidth - 1) / 2));
  const top = Math.max(0, Math.round(verticalOffset + (height - 1) / 2 - (cropHeight - 1) / 2));
  const right = Math.min(width - 1, left + Math.round(cropWidth) - 1);
  const bottom = Math.min(height - 1, top + Math.round(cropHeight) - 1);
  if (right < left || bottom < top) throw corrupt(reader.format, 'its clean aperture is empty');
  if (left === 0 && top === 0 && right === width - 1 && bottom === height - 1) return undefined;
  return { x: left, y: top, width: right - left + 1, height: bottom - top + 1 };
}

function iccProfileOf(reader: ByteReader, properties: Box[]): Uint8Array | undefined {
  for (const colr of properties.filter((box) => box.type === 'colr')) {
    const kind = reader.ascii(colr.body, 4, 'colr box');
    if (kind === 'prof' || kind === 'rICC') return reader.bytes.subarray(colr.body + 4, colr.end);
  }
  return undefined;
}

const ALPHA_TYPES = new Set(['urn:mpeg:hevc:2015:auxid:1', 'urn:mpeg:mpegB:cicp:systems:auxiliary:alpha']);

function auxiliaryType(reader: ByteReader, properties: Box[]): string | undefined {
  const auxC = find(properties, 'auxC');
  if (!auxC) return undefined;
  let end = auxC.body + 4;
  while (end < auxC.end && reader.bytes[end] !== 0) end++;
  return reader.ascii(auxC.body + 4, end - auxC.body - 4, 'auxC box');
}

/**
 * The file's top-level boxes (`ftyp`, `meta`, `moov`, `mdat`, …, in order) and, after the meta box, where
 * bytes stop reading as boxes (`tail`; `tailProblem` when a box there is cut short).
 */
export interface HeifTopLevel {
  types: string[];
  tail?: number;
  tailProblem?: string;
}

export function heifTopLevel(bytes: Uint8Array, format: string): HeifTopLevel {
  const { boxes, ...tail } = walkBoxes(new ByteReader(bytes, format), 0, bytes.length, true);
  return { types: boxes.map((box) => box.type), ...tail };
}

/**
 * How many frames the file's image sequence has (the largest picture or video track in its `moov` box: an
 * animated AVIF/HEIF beside its still first frame), 0 when it has none. Only the still is ever decoded, so a
 * sequence that does not read counts as none rather than failing the still.
 */
export function heifSequenceFrames(bytes: Uint8Array, format: string): number {
  const reader = new ByteReader(bytes, format);
  const inside = (box: Box | undefined, type: string) => box && find(childBoxes(reader, box.body, box.end), type);
  try {
    const moov = find(walkBoxes(reader, 0, bytes.length, true).boxes, 'moov');
    if (!moov) return 0;
    let frames = 0;
    for (const trak of childBoxes(reader, moov.body, moov.end).filter((box) => box.type === 'trak')) {
      const mdia = inside(trak, 'mdia');
      const hdlr = inside(mdia, 'hdlr'); // full box; pre_defined, then handler_type
      const handler = hdlr && reader.ascii(hdlr.body + 8, 4, 'hdlr box');
      if (handler !== 'pict' && handler !== 'vide') continue; // not an alpha (auxv) or metadata track
      const stbl = inside(inside(mdia, 'minf'), 'stbl');
      const sizes = stbl && (inside(stbl, 'stsz') ?? inside(stbl, 'stz2')); // full box; a field, then sample_count
      if (sizes) frames = Math.max(frames, reader.u32be(sizes.body + 8, `${sizes.type} box`));
    }
    return frames;
  } catch (cause) {
    if (isMediaError(cause)) return 0;
    throw cause;
  }
}

/** The `meta` box's item graph as it is stored: items, where their data is, references and properties. */
interface ItemGraph {
  reader: ByteReader;
  primaryId: number;
  infos: Map<number, { type: string; hidden: boolean }>;
  locations: ReturnType<typeof readLocations>;
  references: Map<number, Map<string, number[]>>;
  /** Where readers may see different graphs in this file (an item described twice, references mis-sized). */
  ambiguities: string[];
  properties: Map<number, Box[]>;
  idat: HeifLayout['idat'];
}

function readItemGraph(bytes: Uint8Array, format: string): ItemGraph {
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

/** One image item as a reader sees it before decoding, for the checks libheif makes (integrity/heif-libheif.ts). */
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

interface GridDescriptor {
  rows: number;
  columns: number;
  outputWidth: number;
  outputHeight: number;
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
  idat: HeifLayout['idat'],
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

function gridDescriptor(reader: ByteReader, grid: HeifItem, idat: HeifLayout['idat']): GridDescriptor {
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

function nclxOf(reader: ByteReader, properties: Box[]): HeifNclx | undefined {
  for (const colr of properties.filter((box) => box.type === 'colr')) {
    if (reader.ascii(colr.body, 4, 'colr box') !== 'nclx') continue;
    return {
      primaries: reader.u16be(colr.body + 4, 'colr box'),
      transfer: reader.u16be(colr.body + 6, 'colr box'),
      matrix: reader.u16be(colr.body + 8, 'colr box'),
      fullRange: (reader.u8(colr.body + 10, 'colr box') & 0x80) !== 0,
    };
  }
  return undefined;
}

/** Where a small item's data is (grid descriptors are 8 or 12 bytes in one extent). */
function itemData(reader: ByteReader, item: HeifItem, idat: HeifLayout['idat']): { offset: number; length: number } {
  const extent = item.extents[0];
  if (!extent) throw corrupt(reader.format, `item ${item.id} has no data`);
  if (item.inIdat && !idat) throw corrupt(reader.format, `item ${item.id} lies in an idat box the file lacks`);
  const offset = item.inIdat && idat ? idat.offset + extent.offset : extent.offset;
  reader.need(offset, extent.length, `item ${item.id} data`);
  return { offset, length: extent.length };
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
