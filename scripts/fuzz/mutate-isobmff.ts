// Structure-aware edits of ISO BMFF files (HEIC, HEIF, AVIF): the box tree is parsed, one box or field is
// changed, and the tree is written back with every size correct. When the `meta` box grows or shrinks, the
// `iloc` offsets into `mdat` move with it, so the edit reaches the item graph's reader and the codecs
// instead of stopping at "truncated". Edits: a field of a box that describes the image (ispe, pitm, irot,
// imir, clap, pixi, ipma, iloc, infe, iref, hvcC/av1C, auxC, grid descriptor…), an item's type, a box
// removed, duplicated, moved or retyped, and bytes inside one item's coded data.
import { concatBytes } from '../../packages/media/src/formats/bytes.js';
import { mutateBytes, type Random } from './mutate.js';

interface Box {
  type: string;
  /** Bytes between the 8-byte header and the children: a full box's version and flags, iinf's count. */
  head: Uint8Array;
  /** A leaf's body; empty for a container. */
  body: Uint8Array;
  children?: Box[];
}

/** Containers and how many bytes precede their children. */
const CONTAINERS: Record<string, (body: Uint8Array) => number> = {
  meta: () => 4,
  iprp: () => 0,
  ipco: () => 0,
  dinf: () => 0,
  iref: () => 4,
  grpl: () => 0,
  iinf: (body) => 4 + ((body[0] ?? 0) === 0 ? 2 : 4),
};

const INTERESTING_8 = [0, 1, 2, 3, 4, 7, 8, 10, 12, 16, 0x7f, 0x80, 0xff];
const INTERESTING_16 = [0, 1, 2, 0x7f, 0x80, 0xff, 0x100, 0x1000, 0x7fff, 0x8000, 0xffff];
const INTERESTING_32 = [0, 1, 2, 0xff, 0x100, 0x4000, 0xffff, 0x10000, 0x7fffffff, 0x80000000, 0xffffffff];
const ITEM_TYPES = ['hvc1', 'av01', 'grid', 'iden', 'iovl', 'Exif', 'mime', 'jpeg', 'unci', 'hvc1', 'av01'];
const BOX_TYPES = ['ispe', 'irot', 'imir', 'clap', 'pixi', 'colr', 'auxC', 'hvcC', 'av1C', 'ipma', 'iloc', 'pitm'];

function parse(bytes: Uint8Array, start: number, end: number, depth: number): Box[] | undefined {
  const boxes: Box[] = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = start; at < end; ) {
    if (at + 8 > end) return undefined;
    const size = view.getUint32(at);
    if (size < 8 || at + size > end) return undefined; // 64-bit and to-end sizes: left to byte edits
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    const body = bytes.subarray(at + 8, at + size);
    const headLength = CONTAINERS[type]?.(body);
    if (headLength !== undefined && depth < 4 && headLength <= body.length) {
      const children = parse(bytes, at + 8 + headLength, at + size, depth + 1);
      if (!children) return undefined;
      boxes.push({ type, head: body.slice(0, headLength), body: new Uint8Array(0), children });
    } else {
      boxes.push({ type, head: new Uint8Array(0), body: body.slice() });
    }
    at += size;
  }
  return boxes;
}

function write(boxes: readonly Box[]): Uint8Array {
  const parts = boxes.map((box) => {
    const inner = box.children ? write(box.children) : box.body;
    const out = new Uint8Array(8 + box.head.length + inner.length);
    new DataView(out.buffer).setUint32(0, out.length);
    out.set(
      Uint8Array.from(box.type.slice(0, 4).padEnd(4, ' '), (char) => char.charCodeAt(0) & 0xff),
      4,
    );
    out.set(box.head, 8);
    out.set(inner, 8 + box.head.length);
    return out;
  });
  return concatBytes(parts);
}

const sizeOf = (box: Box): number =>
  8 + box.head.length + (box.children ? box.children.reduce((sum, child) => sum + sizeOf(child), 0) : box.body.length);

/** Every box with the list that holds it, depth first. */
function allBoxes(boxes: Box[], into: { box: Box; siblings: Box[] }[] = []): { box: Box; siblings: Box[] }[] {
  for (const box of boxes) {
    into.push({ box, siblings: boxes });
    if (box.children) allBoxes(box.children, into);
  }
  return into;
}

// ---------------------------------------------------------------- iloc

interface Iloc {
  version: number;
  flags: Uint8Array;
  sizes: { offset: number; length: number; base: number; index: number };
  items: {
    id: number;
    /** construction_method (version 1 and 2) with its reserved bits. */
    method: number;
    reference: number;
    base: number;
    extents: { index: number; offset: number; length: number }[];
  }[];
}

function readIloc(body: Uint8Array): Iloc | undefined {
  let at = 0;
  const take = (bytes: number): number => {
    if (at + bytes > body.length) throw new RangeError('iloc ends early');
    let value = 0;
    for (let i = 0; i < bytes; i++) value = value * 256 + (body[at + i] ?? 0);
    at += bytes;
    return value;
  };
  try {
    const version = take(1);
    const flags = body.slice(1, 4);
    at = 4;
    const sizeByte = take(1);
    const nextByte = take(1);
    const sizes = { offset: sizeByte >> 4, length: sizeByte & 15, base: nextByte >> 4, index: nextByte & 15 };
    if (version > 2 || [sizes.offset, sizes.length, sizes.base].some((size) => ![0, 4, 8].includes(size)))
      return undefined;
    const count = version < 2 ? take(2) : take(4);
    const items: Iloc['items'] = [];
    for (let i = 0; i < count; i++) {
      const id = version < 2 ? take(2) : take(4);
      const method = version >= 1 ? take(2) : 0;
      const reference = take(2);
      const base = take(sizes.base);
      const extents = Array.from({ length: take(2) }, () => ({
        index: version >= 1 && sizes.index > 0 ? take(sizes.index) : 0,
        offset: take(sizes.offset),
        length: take(sizes.length),
      }));
      items.push({ id, method, reference, base, extents });
    }
    return { version, flags, sizes, items };
  } catch {
    return undefined;
  }
}

function writeIloc(iloc: Iloc): Uint8Array {
  const bytes: number[] = [iloc.version, ...iloc.flags];
  const put = (value: number, size: number) => {
    for (let i = size - 1; i >= 0; i--) bytes.push(Math.floor(value / 256 ** i) % 256);
  };
  const { sizes } = iloc;
  bytes.push((sizes.offset << 4) | sizes.length, (sizes.base << 4) | sizes.index);
  put(iloc.items.length, iloc.version < 2 ? 2 : 4);
  for (const item of iloc.items) {
    put(item.id, iloc.version < 2 ? 2 : 4);
    if (iloc.version >= 1) put(item.method, 2);
    put(item.reference, 2);
    put(item.base, sizes.base);
    put(item.extents.length, 2);
    for (const extent of item.extents) {
      if (iloc.version >= 1 && sizes.index > 0) put(extent.index, sizes.index);
      put(extent.offset, sizes.offset);
      put(extent.length, sizes.length);
    }
  }
  return Uint8Array.from(bytes);
}

const ilocOf = (boxes: Box[]) => allBoxes(boxes).find(({ box }) => box.type === 'iloc')?.box;

/**
 * After an edit changed where top-level boxes start, moves each file offset in `iloc` (construction
 * method 0) that pointed into a top-level box with that box. `before` are the top-level boxes' starts.
 */
function followMovedBoxes(boxes: Box[], before: Map<Box, number>): void {
  const ilocBox = ilocOf(boxes);
  const iloc = ilocBox && readIloc(ilocBox.body);
  if (!ilocBox || !iloc) return;
  const after = new Map<Box, number>();
  let at = 0;
  for (const box of boxes) {
    after.set(box, at);
    at += sizeOf(box);
  }
  const moved = (offset: number): number => {
    for (const [box, start] of before) {
      const now = after.get(box);
      if (now !== undefined && offset >= start && offset < start + sizeOf(box)) return offset + now - start;
    }
    return offset;
  };
  const limit = (size: number) => (size === 0 ? 0 : 256 ** size - 1);
  for (const item of iloc.items) {
    if ((item.method & 15) !== 0) continue;
    if (item.base !== 0 && iloc.sizes.base > 0) {
      const first = item.extents[0];
      const shifted = moved(item.base + (first?.offset ?? 0)) - (first?.offset ?? 0);
      if (shifted >= 0 && shifted <= limit(iloc.sizes.base)) item.base = shifted;
      continue;
    }
    for (const extent of item.extents) {
      const shifted = moved(extent.offset);
      if (iloc.sizes.offset > 0 && shifted <= limit(iloc.sizes.offset)) extent.offset = shifted;
    }
  }
  ilocBox.body = writeIloc(iloc);
}

// ---------------------------------------------------------------- edits

function setNumber(bytes: Uint8Array, random: Random): void {
  if (bytes.length === 0) return;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const width = random.pick([1, 2, 4] as const);
  const at = random.int(Math.max(1, bytes.length - width + 1));
  if (width === 1 || bytes.length < width) bytes[at] = random.pick(INTERESTING_8);
  else if (width === 2) view.setUint16(at, random.pick(INTERESTING_16));
  else view.setUint32(at, random.pick(INTERESTING_32));
}

/** Item data ranges in the file (construction method 0), from iloc. */
function itemRanges(boxes: Box[]): { offset: number; length: number }[] {
  const ilocBox = ilocOf(boxes);
  const iloc = ilocBox && readIloc(ilocBox.body);
  if (!iloc) return [];
  return iloc.items
    .filter((item) => (item.method & 15) === 0)
    .flatMap((item) => item.extents.map((extent) => ({ offset: item.base + extent.offset, length: extent.length })));
}

/** One structure-aware edit of an ISO BMFF file; byte edits when its boxes do not parse. */
export function mutateIsobmff(bytes: Uint8Array, random: Random): Uint8Array {
  const boxes = parse(bytes, 0, bytes.length, 0);
  if (!boxes || boxes.length === 0) return mutateBytes(bytes, random);
  const starts = new Map<Box, number>();
  let at = 0;
  for (const box of boxes) {
    starts.set(box, at);
    at += sizeOf(box);
  }
  const everything = allBoxes(boxes);
  const inMeta = everything.filter(({ box }) => box.type !== 'meta' && box.type !== 'ftyp' && box.type !== 'mdat');
  const leaves = inMeta.filter(({ box }) => !box.children);
  const pick = <T>(items: readonly T[]) => (items.length > 0 ? random.pick(items) : undefined);
  switch (random.int(9)) {
    case 0:
    case 1: {
      // A number in a box that describes the image: sizes, item IDs, offsets, angles, depths.
      const described = leaves.filter(({ box }) => !['mdat', 'free', 'hdlr', 'dinf', 'dref'].includes(box.type));
      const target = pick(described)?.box;
      if (!target) return mutateBytes(bytes, random);
      setNumber(target.body, random);
      return write(boxes);
    }
    case 2: {
      // An item's type (infe version 2 and 3: ID, protection index, then the four-character type).
      const infes = leaves.filter(({ box }) => box.type === 'infe');
      const target = pick(infes)?.box;
      if (!target) return mutateBytes(bytes, random);
      const typeAt = 4 + ((target.body[0] ?? 0) >= 3 ? 4 : 2) + 2;
      const type = random.pick(ITEM_TYPES);
      for (let i = 0; i < 4 && typeAt + i < target.body.length; i++) target.body[typeAt + i] = type.charCodeAt(i);
      return write(boxes);
    }
    case 3: {
      // A box removed or duplicated, then iloc follows the data.
      const target = pick(inMeta);
      if (!target) return mutateBytes(bytes, random);
      const index = target.siblings.indexOf(target.box);
      if (random.chance(0.5)) target.siblings.splice(index, 1);
      else target.siblings.splice(index, 0, structuredClone(target.box));
      followMovedBoxes(boxes, starts);
      return write(boxes);
    }
    case 4: {
      // Two sibling boxes swap places (property order matters: irot before imir, ipco indices).
      const target = pick(inMeta.filter(({ siblings }) => siblings.length > 1));
      if (!target) return mutateBytes(bytes, random);
      const { siblings } = target;
      const a = random.int(siblings.length);
      const b = random.int(siblings.length);
      [siblings[a], siblings[b]] = [siblings[b] as Box, siblings[a] as Box];
      followMovedBoxes(boxes, starts);
      return write(boxes);
    }
    case 5: {
      // A box retyped, or a leaf's body cut short or lengthened.
      const target = pick(leaves)?.box;
      if (!target) return mutateBytes(bytes, random);
      if (random.chance(0.5)) target.type = random.pick(BOX_TYPES);
      else
        target.body = random.chance(0.5)
          ? target.body.slice(0, random.int(target.body.length + 1))
          : Uint8Array.from([...target.body, ...Array.from({ length: 1 + random.int(8) }, () => random.int(256))]);
      followMovedBoxes(boxes, starts);
      return write(boxes);
    }
    case 6:
    case 7: {
      // Bytes inside one item's data: the coded image (reaching libde265 or dav1d), a grid descriptor, Exif.
      const range = pick(
        itemRanges(boxes).filter(({ offset, length }) => length > 0 && offset + length <= bytes.length),
      );
      if (!range) return mutateBytes(bytes, random);
      const out = bytes.slice();
      const inside = out.subarray(range.offset, range.offset + range.length);
      if (range.length <= 16 || random.chance(0.3)) setNumber(inside, random);
      else
        for (let i = 0, count = 1 + random.int(8); i < count; i++) {
          const where = random.int(inside.length);
          inside[where] = (inside[where] ?? 0) ^ (1 << random.int(8));
        }
      return out;
    }
    default: {
      // A leaf's body edited bytewise (sizes kept by the writer).
      const target = pick(leaves)?.box;
      if (!target) return mutateBytes(bytes, random);
      target.body = mutateBytes(target.body, random);
      followMovedBoxes(boxes, starts);
      return write(boxes);
    }
  }
}
