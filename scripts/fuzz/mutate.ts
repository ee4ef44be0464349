// Mutations: generic byte edits plus edits that know each format's structure, so most inputs get past
// the first checksum or length check and reach the decoder's deeper code (PNG chunks keep valid CRCs and
// IDAT keeps a valid zlib stream; JPEG segments, RIFF chunks, GIF blocks and BMP header fields are edited
// as fields; SVG attributes and elements; PDF numbers, names and keywords).
import { crc32, deflateSync, inflateSync } from 'node:zlib';
import { concatBytes } from '../../packages/media/src/formats/bytes.js';
import { mutateIsobmff } from './mutate-isobmff.js';
import type { FuzzFormat } from './seeds.js';

/** Deterministic PRNG (mulberry32): the same seed gives the same inputs on every machine. */
export function prng(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (below: number) => Math.floor(next() * below);
  return {
    next,
    int,
    pick: <T>(items: readonly T[]) => items[int(items.length)] as T,
    chance: (p: number) => next() < p,
  };
}

export interface Random {
  next(): number;
  /** An integer in [0, below). */
  int(below: number): number;
  pick<T>(items: readonly T[]): T;
  chance(probability: number): boolean;
}

/** The seed of input `index` of `format` in a run seeded with `runSeed`. */
export function inputSeed(runSeed: number, format: FuzzFormat, index: number): number {
  let hash = 2166136261 ^ runSeed;
  for (const char of `${format}:${index}`) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619);
  return hash >>> 0;
}

const INTERESTING_8 = [0, 1, 2, 7, 8, 0x10, 0x20, 0x3f, 0x40, 0x7f, 0x80, 0xfe, 0xff];
const INTERESTING_32 = [
  0, 1, 2, 0xff, 0x100, 0x3fff, 0x4000, 0x7fff, 0x8000, 0xffff, 0x10000, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff,
];

// ---------------------------------------------------------------- generic

/** One generic edit anywhere in the bytes; `donor` supplies splices. */
export function mutateBytes(bytes: Uint8Array, random: Random, donor?: Uint8Array): Uint8Array {
  const length = bytes.length;
  const at = random.int(Math.max(1, length));
  switch (random.int(9)) {
    case 0: {
      const out = bytes.slice();
      if (length > 0) out[at] = (out[at] ?? 0) ^ (1 << random.int(8));
      return out;
    }
    case 1: {
      const out = bytes.slice();
      if (length > 0) out[at] = random.pick(INTERESTING_8);
      return out;
    }
    case 2: {
      const out = bytes.slice();
      if (at + 4 <= length) new DataView(out.buffer).setUint32(at, random.pick(INTERESTING_32), random.chance(0.5));
      return out;
    }
    case 3: {
      const out = bytes.slice();
      for (let i = 0, count = 1 + random.int(16); i < count && length > 0; i++)
        out[random.int(length)] = random.int(256);
      return out;
    }
    case 4: // insert random bytes
      return concatBytes([
        bytes.subarray(0, at),
        Uint8Array.from({ length: 1 + random.int(64) }, () => random.int(256)),
        bytes.subarray(at),
      ]);
    case 5: // delete a range
      return concatBytes([bytes.subarray(0, at), bytes.subarray(Math.min(length, at + 1 + random.int(64)))]);
    case 6: {
      // duplicate a range
      const end = Math.min(length, at + 1 + random.int(256));
      return concatBytes([bytes.subarray(0, end), bytes.subarray(at, end), bytes.subarray(end)]);
    }
    case 7: // truncate
      return bytes.slice(0, at);
    default: {
      if (!donor || donor.length === 0) return bytes.slice(0, at);
      const from = random.int(donor.length);
      return concatBytes([bytes.subarray(0, at), donor.subarray(from, from + 1 + random.int(512))]);
    }
  }
}

// ---------------------------------------------------------------- PNG

interface Chunk {
  type: string;
  data: Uint8Array;
  /** Leave the CRC wrong on purpose. */
  badCrc?: boolean;
}

function pngChunks(bytes: Uint8Array): Chunk[] | undefined {
  const chunks: Chunk[] = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let offset = 8; offset + 12 <= bytes.length; ) {
    const length = view.getUint32(offset);
    if (offset + 12 + length > bytes.length) return undefined;
    chunks.push({
      type: String.fromCharCode(...bytes.subarray(offset + 4, offset + 8)),
      data: bytes.slice(offset + 8, offset + 8 + length),
    });
    offset += 12 + length;
  }
  return chunks.length > 0 ? chunks : undefined;
}

function writePng(chunks: readonly Chunk[]): Uint8Array {
  const parts: Uint8Array[] = [Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])];
  for (const chunk of chunks) {
    const out = new Uint8Array(12 + chunk.data.length);
    const view = new DataView(out.buffer);
    view.setUint32(0, chunk.data.length);
    out.set(new TextEncoder().encode(chunk.type.slice(0, 4).padEnd(4, ' ')), 4);
    out.set(chunk.data, 8);
    const crc = crc32(out.subarray(4, 8 + chunk.data.length));
    view.setUint32(8 + chunk.data.length, chunk.badCrc ? crc ^ 0x5a5a : crc);
    parts.push(out);
  }
  return concatBytes(parts);
}

const PNG_EXTRA_TYPES = [
  'PLTE',
  'tRNS',
  'gAMA',
  'cHRM',
  'sRGB',
  'iCCP',
  'eXIf',
  'bKGD',
  'sBIT',
  'pHYs',
  'zTXt',
  'iTXt',
  'acTL',
  'fcTL',
  'fdAT',
  'IDAT',
  'IEND',
  'IHDR',
];

function mutatePng(bytes: Uint8Array, random: Random): Uint8Array {
  const chunks = pngChunks(bytes);
  if (!chunks) return mutateBytes(bytes, random);
  const index = random.int(chunks.length);
  const chunk = chunks[index] as Chunk;
  switch (random.int(8)) {
    case 0: {
      // IHDR fields: size, bit depth, colour type, methods, interlace
      const ihdr = chunks.find((c) => c.type === 'IHDR');
      if (!ihdr || ihdr.data.length < 13) break;
      const view = new DataView(ihdr.data.buffer, ihdr.data.byteOffset);
      const field = random.int(4);
      if (field === 0)
        view.setUint32(random.pick([0, 4]), random.chance(0.5) ? random.pick(INTERESTING_32) : 1 + random.int(5000));
      else if (field === 1) ihdr.data[8] = random.pick([0, 1, 2, 3, 4, 5, 8, 16, 32]);
      else if (field === 2) ihdr.data[9] = random.pick([0, 1, 2, 3, 4, 5, 6, 7, 8]);
      else ihdr.data[10 + random.int(3)] = random.pick([0, 1, 2, 255]);
      break;
    }
    case 1:
    case 2: {
      // The image data itself: inflate, edit (filter bytes, scanlines, length), deflate again
      const idat = chunks.filter((c) => c.type === 'IDAT');
      if (idat.length === 0) break;
      let raw: Uint8Array;
      try {
        raw = new Uint8Array(inflateSync(concatBytes(idat.map((c) => c.data))));
      } catch {
        break;
      }
      raw = random.chance(0.3) && raw.length > 0 ? raw.slice() : mutateBytes(raw, random);
      if (raw.length > 0 && random.chance(0.5)) raw[random.int(raw.length)] = random.int(8); // a filter-type-like byte
      const stream = new Uint8Array(deflateSync(raw));
      const pieces = 1 + random.int(3);
      const step = Math.ceil(stream.length / pieces);
      const first = chunks.indexOf(idat[0] as Chunk);
      const rest = chunks.filter((c) => c.type !== 'IDAT');
      const replacement = Array.from({ length: pieces }, (_, i) => ({
        type: 'IDAT',
        data: stream.slice(i * step, (i + 1) * step),
      }));
      rest.splice(Math.min(first, rest.length), 0, ...replacement);
      return writePng(rest);
    }
    case 3:
      chunk.data = mutateBytes(chunk.data, random);
      break;
    case 4:
      chunks.splice(index, 1);
      break;
    case 5:
      chunks.splice(index, 0, { type: chunk.type, data: chunk.data.slice() });
      break;
    case 6: {
      const data = Uint8Array.from({ length: random.pick([0, 1, 3, 6, 13, 26, 100, 768, 1000]) }, () =>
        random.int(256),
      );
      chunks.splice(1 + random.int(chunks.length), 0, { type: random.pick(PNG_EXTRA_TYPES), data });
      break;
    }
    default:
      chunk.badCrc = true; // a corrupt file must never be passed through
  }
  return writePng(chunks);
}

// ---------------------------------------------------------------- JPEG

interface Segment {
  marker: number;
  data: Uint8Array;
}

/** Segments up to and including SOS; the rest (entropy data, later markers, EOI) stays as bytes. */
function jpegSegments(bytes: Uint8Array): { segments: Segment[]; tail: Uint8Array } | undefined {
  const segments: Segment[] = [];
  let offset = 2;
  while (offset + 4 <= bytes.length && bytes[offset] === 0xff) {
    const marker = bytes[offset + 1] ?? 0;
    const length = ((bytes[offset + 2] ?? 0) << 8) | (bytes[offset + 3] ?? 0);
    if (length < 2 || offset + 2 + length > bytes.length) return undefined;
    segments.push({ marker, data: bytes.slice(offset + 4, offset + 2 + length) });
    offset += 2 + length;
    if (marker === 0xda) return { segments, tail: bytes.slice(offset) };
  }
  return undefined;
}

function writeJpeg(segments: readonly Segment[], tail: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [Uint8Array.from([0xff, 0xd8])];
  for (const { marker, data } of segments) {
    const length = Math.min(0xffff, data.length + 2);
    parts.push(Uint8Array.from([0xff, marker, length >> 8, length & 0xff]), data.subarray(0, length - 2));
  }
  parts.push(tail);
  return concatBytes(parts);
}

function mutateJpeg(bytes: Uint8Array, random: Random): Uint8Array {
  const parsed = jpegSegments(bytes);
  if (!parsed) return mutateBytes(bytes, random);
  const { segments } = parsed;
  let { tail } = parsed;
  const index = random.int(segments.length);
  const segment = segments[index] as Segment;
  const sof = segments.find((s) => s.marker >= 0xc0 && s.marker <= 0xc2);
  switch (random.int(8)) {
    case 0: {
      // Frame header: precision, size, component count and sampling factors, or the SOF type itself
      if (!sof || sof.data.length < 6) break;
      const field = random.int(5);
      if (field === 0) sof.data[0] = random.pick([0, 1, 8, 12, 16, 255]);
      else if (field === 1)
        new DataView(sof.data.buffer, sof.data.byteOffset).setUint16(
          random.pick([1, 3]),
          random.pick([0, 1, 2, 7, 8, 9, 16, 17, 255, 256, 4096, 0x7fff, 0xffff]),
        );
      else if (field === 2) sof.data[5] = random.pick([0, 1, 2, 3, 4, 5, 255]);
      else if (field === 3 && sof.data.length > 7)
        sof.data[7 + 3 * random.int(Math.max(1, (sof.data.length - 6) / 3))] = random.int(256);
      else sof.marker = random.pick([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc9, 0xca, 0xcb, 0xcf]);
      break;
    }
    case 1:
      segment.data = mutateBytes(segment.data, random);
      break;
    case 2: {
      // entropy-coded data: bit flips, stray markers, restart markers, truncation
      const out = tail.slice();
      const at = random.int(Math.max(1, out.length - 2));
      const choice = random.int(4);
      if (choice === 0)
        for (let i = 0, n = 1 + random.int(8); i < n; i++) {
          const at = random.int(out.length);
          out[at] = (out[at] ?? 0) ^ (1 << random.int(8));
        }
      else if (choice === 1)
        tail = concatBytes([
          out.subarray(0, at),
          Uint8Array.from([0xff, random.pick([0xd0, 0xd3, 0xd7, 0xd9, 0xd8, 0xc4, 0xda, 0xdd, 0x00, 0xfe])]),
          out.subarray(at),
        ]);
      else if (choice === 2) tail = out.subarray(0, at);
      else tail = concatBytes([out.subarray(0, at), out.subarray(at + random.int(200))]);
      if (choice === 0) tail = out;
      break;
    }
    case 3:
      segments.splice(index, 1);
      break;
    case 4:
      segments.splice(index, 0, { marker: segment.marker, data: segment.data.slice() });
      break;
    case 5: {
      // a restart interval, an EXIF orientation or an Adobe transform where there was none
      const inserts: Segment[] = [
        { marker: 0xdd, data: Uint8Array.from([0, random.pick([0, 1, 2, 255])]) },
        {
          marker: 0xe1,
          data: concatBytes([
            new TextEncoder().encode('Exif\0\0MM\0*\0\0\0\x08\0\x01\x01\x12\0\x03\0\0\0\x01'),
            Uint8Array.from([0, random.int(12), 0, 0, 0, 0, 0, 0]),
          ]),
        },
        {
          marker: 0xee,
          data: concatBytes([new TextEncoder().encode('Adobe'), Uint8Array.from([0, 100, 0, 0, 0, 0, random.int(4)])]),
        },
        {
          marker: 0xe2,
          data: concatBytes([
            new TextEncoder().encode('ICC_PROFILE\0'),
            Uint8Array.from({ length: 20 + random.int(200) }, () => random.int(256)),
          ]),
        },
      ];
      segments.splice(random.int(segments.length), 0, random.pick(inserts));
      break;
    }
    case 6: {
      // Huffman and quantisation tables: counts and values
      const tables = segments.filter((s) => s.marker === 0xc4 || s.marker === 0xdb);
      const table = tables.length > 0 ? random.pick(tables) : segment;
      if (table.data.length > 0) table.data[random.int(Math.min(table.data.length, 20))] = random.pick(INTERESTING_8);
      break;
    }
    default: {
      // scan header: component count, table selectors, spectral selection, approximation
      const sos = segments[segments.length - 1] as Segment;
      if (sos.data.length > 0) sos.data[random.int(sos.data.length)] = random.pick(INTERESTING_8);
    }
  }
  return writeJpeg(segments, tail);
}

// ---------------------------------------------------------------- WebP (RIFF)

function riffChunks(bytes: Uint8Array): Chunk[] | undefined {
  if (bytes.length < 12) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const chunks: Chunk[] = [];
  for (let offset = 12; offset + 8 <= bytes.length; ) {
    const size = view.getUint32(offset + 4, true);
    if (offset + 8 + size > bytes.length) return undefined;
    chunks.push({
      type: String.fromCharCode(...bytes.subarray(offset, offset + 4)),
      data: bytes.slice(offset + 8, offset + 8 + size),
    });
    offset += 8 + size + (size % 2);
  }
  return chunks;
}

function writeRiff(chunks: readonly Chunk[], riffSizeDelta = 0): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const chunk of chunks) {
    const header = new Uint8Array(8);
    header.set(new TextEncoder().encode(chunk.type.slice(0, 4).padEnd(4, ' ')));
    new DataView(header.buffer).setUint32(4, chunk.data.length, true);
    parts.push(header, chunk.data, new Uint8Array(chunk.data.length % 2));
  }
  const body = concatBytes(parts);
  const head = new Uint8Array(12);
  head.set(new TextEncoder().encode('RIFF'));
  new DataView(head.buffer).setUint32(4, (body.length + 4 + riffSizeDelta) >>> 0, true);
  head.set(new TextEncoder().encode('WEBP'), 8);
  return concatBytes([head, body]);
}

function mutateWebp(bytes: Uint8Array, random: Random): Uint8Array {
  const chunks = riffChunks(bytes);
  if (!chunks || chunks.length === 0) return mutateBytes(bytes, random);
  const index = random.int(chunks.length);
  const chunk = chunks[index] as Chunk;
  let riffSizeDelta = 0;
  switch (random.int(7)) {
    case 0: {
      // canvas and frame sizes: VP8X canvas, VP8 frame header, VP8L header, ANMF frame rectangle
      const sized = chunks.filter((c) => ['VP8X', 'VP8 ', 'VP8L', 'ANMF'].includes(c.type));
      const target = sized.length > 0 ? random.pick(sized) : chunk;
      const offsets: Record<string, number[]> = {
        VP8X: [4, 5, 6, 7, 8, 9],
        'VP8 ': [6, 7, 8, 9],
        VP8L: [1, 2, 3, 4],
        ANMF: [0, 3, 6, 7, 8, 9, 10, 11, 15],
      };
      const at = random.pick(offsets[target.type] ?? [0]);
      if (at < target.data.length) target.data[at] = random.pick(INTERESTING_8);
      break;
    }
    case 1:
      // flags: VP8X feature bits, ALPH compression/filter byte
      if (chunk.data.length > 0) chunk.data[0] = random.int(256);
      break;
    case 2:
      chunk.data = mutateBytes(chunk.data, random);
      break;
    case 3:
      chunks.splice(
        index,
        random.chance(0.5) ? 1 : 0,
        ...(random.chance(0.5) ? [{ type: chunk.type, data: chunk.data.slice() }] : []),
      );
      break;
    case 4: {
      const type = random.pick(['ALPH', 'ANIM', 'ANMF', 'EXIF', 'ICCP', 'XMP ', 'VP8X', 'VP8 ', 'VP8L']);
      const data =
        type === 'EXIF'
          ? new TextEncoder().encode(
              `MM\0*\0\0\0\x08\0\x01\x01\x12\0\x03\0\0\0\x01\0${String.fromCharCode(random.int(12))}\0\0`,
            )
          : Uint8Array.from({ length: random.pick([0, 1, 4, 10, 16, 40]) }, () => random.int(256));
      chunks.splice(random.int(chunks.length + 1), 0, { type, data });
      break;
    }
    case 5:
      riffSizeDelta = random.pick([-1, 1, -8, 8, 100, -1000, 0x7fffffff]);
      break;
    default:
      return mutateBytes(bytes, random);
  }
  return writeRiff(chunks, riffSizeDelta);
}

// ---------------------------------------------------------------- GIF

interface GifBlock {
  kind: 'extension' | 'image';
  /** Extension label and sub-blocks, or image descriptor (+ local table) and LZW code size. */
  head: Uint8Array;
  subBlocks: Uint8Array[];
}

function gifBlocks(bytes: Uint8Array): { header: Uint8Array; blocks: GifBlock[] } | undefined {
  if (bytes.length < 13) return undefined;
  let offset = 13;
  const packed = bytes[10] ?? 0;
  if (packed & 0x80) offset += 3 << ((packed & 7) + 1);
  const header = bytes.slice(0, offset);
  const blocks: GifBlock[] = [];
  const readSubBlocks = (): Uint8Array[] | undefined => {
    const found: Uint8Array[] = [];
    while (offset < bytes.length) {
      const size = bytes[offset++] ?? 0;
      if (size === 0) return found;
      found.push(bytes.slice(offset, offset + size));
      offset += size;
    }
    return undefined;
  };
  while (offset < bytes.length) {
    const introducer = bytes[offset];
    if (introducer === 0x3b) return { header, blocks };
    if (introducer === 0x21) {
      const head = bytes.slice(offset, offset + 2);
      offset += 2;
      const subBlocks = readSubBlocks();
      if (!subBlocks) return undefined;
      blocks.push({ kind: 'extension', head, subBlocks });
    } else if (introducer === 0x2c) {
      const flags = bytes[offset + 9] ?? 0;
      const tableBytes = flags & 0x80 ? 3 << ((flags & 7) + 1) : 0;
      const head = bytes.slice(offset, offset + 10 + tableBytes + 1);
      offset += 10 + tableBytes + 1;
      const subBlocks = readSubBlocks();
      if (!subBlocks) return undefined;
      blocks.push({ kind: 'image', head, subBlocks });
    } else return undefined;
  }
  return undefined;
}

function writeGif(header: Uint8Array, blocks: readonly GifBlock[], trailer: boolean): Uint8Array {
  const parts: Uint8Array[] = [header];
  for (const block of blocks) {
    parts.push(block.head);
    for (const sub of block.subBlocks) parts.push(Uint8Array.of(Math.min(255, sub.length)), sub.subarray(0, 255));
    parts.push(Uint8Array.of(0));
  }
  if (trailer) parts.push(Uint8Array.of(0x3b));
  return concatBytes(parts);
}

function mutateGif(bytes: Uint8Array, random: Random): Uint8Array {
  const parsed = gifBlocks(bytes);
  if (!parsed || parsed.blocks.length === 0) return mutateBytes(bytes, random);
  const { blocks } = parsed;
  const header = parsed.header.slice();
  const images = blocks.filter((b) => b.kind === 'image');
  const image = images.length > 0 ? random.pick(images) : undefined;
  let trailer = true;
  switch (random.int(8)) {
    case 0: // logical screen: size, packed (global table flag and size), background
      header[random.pick([6, 7, 8, 9, 10, 11])] = random.pick(INTERESTING_8);
      break;
    case 1: // image descriptor: position, size, flags (local table, interlace)
      if (image) image.head[1 + random.int(9)] = random.pick(INTERESTING_8);
      break;
    case 2: // LZW minimum code size
      if (image) image.head[image.head.length - 1] = random.pick([0, 1, 2, 3, 7, 8, 9, 11, 12, 255]);
      break;
    case 3: {
      // LZW data
      if (!image || image.subBlocks.length === 0) break;
      const at = random.int(image.subBlocks.length);
      image.subBlocks[at] = mutateBytes(image.subBlocks[at] as Uint8Array, random);
      if (random.chance(0.3)) image.subBlocks.splice(at + 1);
      break;
    }
    case 4: {
      // graphic control: disposal, transparency, delay
      const control = blocks.find((b) => b.kind === 'extension' && b.head[1] === 0xf9);
      const sub = control?.subBlocks[0];
      if (sub && sub.length > 0) sub[random.int(sub.length)] = random.int(256);
      break;
    }
    case 5: {
      const index = random.int(blocks.length);
      const block = blocks[index] as GifBlock;
      if (random.chance(0.5)) blocks.splice(index, 1);
      else
        for (let i = 0, n = 1 + random.int(random.chance(0.1) ? 200 : 3); i < n; i++)
          blocks.splice(index, 0, {
            ...block,
            head: block.head.slice(),
            subBlocks: block.subBlocks.map((s) => s.slice()),
          });
      break;
    }
    case 6:
      trailer = false;
      break;
    default:
      return mutateBytes(bytes, random);
  }
  return writeGif(header, blocks, trailer);
}

// ---------------------------------------------------------------- BMP

/** Header fields as [offset, size]: file size, pixel offset, header size, width, height, planes, bit count, compression, image size, colours used, masks. */
const BMP_FIELDS: ReadonlyArray<readonly [number, 2 | 4]> = [
  [2, 4],
  [10, 4],
  [14, 4],
  [18, 4],
  [22, 4],
  [26, 2],
  [28, 2],
  [30, 4],
  [34, 4],
  [46, 4],
  [50, 4],
  [54, 4],
  [58, 4],
  [62, 4],
  [66, 4],
];

function mutateBmp(bytes: Uint8Array, random: Random): Uint8Array {
  if (bytes.length < 54 || random.chance(0.3)) return mutateBytes(bytes, random);
  const out = bytes.slice();
  const view = new DataView(out.buffer);
  const [offset, size] = random.pick(BMP_FIELDS);
  if (offset + size > out.length) return out;
  const special: Record<number, number[]> = {
    14: [12, 16, 40, 52, 56, 64, 108, 124, 0, 0xffffffff],
    28: [0, 1, 2, 4, 8, 16, 24, 32, 48, 64, 0xffff],
    30: [0, 1, 2, 3, 4, 5, 6, 11, 0xffffffff],
    22: [0, 1, 0xffffffff, 0x80000000, 0xfffffff0, 0x7fffffff],
  };
  const value =
    special[offset] && random.chance(0.6) ? random.pick(special[offset] as number[]) : random.pick(INTERESTING_32);
  if (size === 2) view.setUint16(offset, value & 0xffff, true);
  else view.setUint32(offset, value >>> 0, true);
  return out;
}

// ---------------------------------------------------------------- SVG

const SVG_VALUES = [
  '0',
  '-1',
  '1e9',
  '-1e9',
  '1e308',
  'NaN',
  'Infinity',
  '100000%',
  '1e6',
  '999999999999',
  'url(#f)',
  'url(#self)',
  '',
  'inherit',
  'none',
  '0 0 0 0',
  '1 1e-9',
  '#zz',
  'calc(1e9 * 1e9)',
  'rotate(1e9) scale(1e-30)',
  `M0 0${' L1e9 1e9'.repeat(20)}`,
];

const SVG_INSERTS = [
  '<filter id="f"><feMorphology radius="1e6"/></filter><rect width="100%" height="100%" filter="url(#f)"/>',
  '<filter id="f" filterRes="1e6"><feTurbulence baseFrequency="0.9" numOctaves="100000"/></filter><rect width="100%" height="100%" filter="url(#f)"/>',
  '<filter id="f"><feGaussianBlur stdDeviation="1e7"/></filter><circle r="40" filter="url(#f)"/>',
  '<g id="self"><use href="#self"/></g>',
  '<pattern id="p" width="1e-9" height="1e-9"><rect width="1" height="1"/></pattern><rect width="100%" height="100%" fill="url(#p)"/>',
  `<g>${'<g>'.repeat(2000)}<rect width="9" height="9"/>${'</g>'.repeat(2000)}</g>`,
  `<text x="0" y="20">${'M'.repeat(20000)}</text>`,
  '<text>кириллица 中文 日本語 한국어 😀</text>',
  '<image width="1e6" height="1e6" href="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAAFklEQVR4nGNgYPj/n4GBgYGBgYGBAQAJ/wH+8QbRgwAAAABJRU5ErkJggg=="/>',
  '<image href="file:///etc/passwd" width="10" height="10"/>',
  '<style>* { filter: blur(1e6px); stroke-width: 1e9 }</style>',
  '<mask id="m"><rect width="1e9" height="1e9" fill="white" mask="url(#m)"/></mask>',
  '<path d="M0 0 C1e308 1e308 -1e308 -1e308 1 1 Z" stroke="black" stroke-dasharray="0.0001"/>',
  '<foreignObject width="10" height="10"><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject>',
];

function mutateSvg(bytes: Uint8Array, random: Random): Uint8Array {
  let text = new TextDecoder().decode(bytes);
  switch (random.int(5)) {
    case 0:
    case 1: {
      // an attribute's value
      const attributes = [...text.matchAll(/([A-Za-z][\w:-]*)="([^"]*)"/g)];
      if (attributes.length === 0) break;
      const attribute = random.pick(attributes);
      const start = (attribute.index ?? 0) + (attribute[1]?.length ?? 0) + 2;
      const value = random.chance(0.7)
        ? random.pick(SVG_VALUES)
        : String(random.next() * 10 ** random.int(12) * (random.chance(0.2) ? -1 : 1));
      text = text.slice(0, start) + value + text.slice(start + (attribute[2]?.length ?? 0));
      break;
    }
    case 2: {
      // an element that reaches an expensive or unusual path
      const close = text.lastIndexOf('</svg>');
      if (close < 0) break;
      text = text.slice(0, close) + random.pick(SVG_INSERTS) + text.slice(close);
      break;
    }
    case 3: {
      // duplicate or delete an element
      const elements = [...text.matchAll(/<([a-zA-Z]+)\b[^<>]*\/>/g)];
      if (elements.length === 0) break;
      const element = random.pick(elements);
      const at = element.index ?? 0;
      text = random.chance(0.5)
        ? text.slice(0, at) + text.slice(at + element[0].length)
        : text.slice(0, at) + element[0].repeat(1 + random.int(50)) + text.slice(at);
      break;
    }
    default:
      return mutateBytes(bytes, random);
  }
  return new TextEncoder().encode(text);
}

// ---------------------------------------------------------------- PDF

const PDF_NUMBERS = [
  '0',
  '-1',
  '4294967296',
  '99999999999999999999',
  '2147483648',
  '1e308',
  '-0',
  '.5',
  '65536',
  '1000000',
];
const PDF_NAMES = [
  '/Type',
  '/Pages',
  '/Page',
  '/Kids',
  '/Count',
  '/MediaBox',
  '/Root',
  '/Size',
  '/Length',
  '/Filter',
  '/FlateDecode',
  '/ObjStm',
  '/XRef',
  '/Prev',
  '/Encrypt',
  '/Parent',
  '/Rotate',
];

function mutatePdf(bytes: Uint8Array, random: Random): Uint8Array {
  let text = new TextDecoder('latin1').decode(bytes);
  const replaceOne = (pattern: RegExp, make: () => string) => {
    const matches = [...text.matchAll(pattern)];
    if (matches.length === 0) return;
    const match = random.pick(matches);
    const at = match.index ?? 0;
    text = text.slice(0, at) + make() + text.slice(at + match[0].length);
  };
  switch (random.int(6)) {
    case 0:
    case 1:
      replaceOne(/-?\d+(\.\d+)?/g, () => random.pick(PDF_NUMBERS));
      break;
    case 2:
      replaceOne(/\/[A-Za-z]+/g, () => random.pick(PDF_NAMES));
      break;
    case 3:
      replaceOne(/\b(obj|endobj|stream|endstream|xref|trailer|startxref|R)\b/g, () =>
        random.pick(['', 'obj', 'endobj', 'R', '<<', '>>', '[', ']']),
      );
      break;
    case 4:
      replaceOne(/<<|\[/g, () =>
        random.chance(0.5) ? '['.repeat(1 + random.int(20000)) : '<<'.repeat(1 + random.int(5000)),
      );
      break;
    default:
      return mutateBytes(bytes, random);
  }
  // latin1 round-trips every byte value
  return Uint8Array.from(text, (char) => char.charCodeAt(0) & 0xff);
}

const STRUCTURED: Record<FuzzFormat, (bytes: Uint8Array, random: Random) => Uint8Array> = {
  png: mutatePng,
  jpeg: mutateJpeg,
  webp: mutateWebp,
  gif: mutateGif,
  bmp: mutateBmp,
  svg: mutateSvg,
  pdf: mutatePdf,
  // TIFF and ICO: byte-level edits for now (their headers are small, so most edits land in a structure).
  tiff: mutateBytes,
  ico: mutateBytes,
  avif: mutateIsobmff,
  heic: mutateIsobmff,
};

/** One fuzz input: a seed with one to four edits, three in four of them structure-aware. */
export function mutate(format: FuzzFormat, seeds: readonly Uint8Array[], random: Random): Uint8Array {
  let bytes = random.pick(seeds);
  for (let i = 0, edits = 1 + random.int(4); i < edits; i++) {
    bytes = random.chance(0.75) ? STRUCTURED[format](bytes, random) : mutateBytes(bytes, random, random.pick(seeds));
  }
  return bytes;
}
