import { isOrientation } from '../exif.js';
import type { TiffInfo } from '../../types.js';
import type { Probed } from '../format.js';
import { ByteReader, corrupt } from '../byte-reader.js';

const IMAGE_WIDTH = 0x0100;
const IMAGE_LENGTH = 0x0101;
const BITS_PER_SAMPLE = 0x0102;
const COMPRESSION = 0x0103;
const ORIENTATION = 0x0112;
const EXTRA_SAMPLES = 0x0152;
const ICC_PROFILE = 0x8773; // 34675, InterColorProfile
const JPEG_COMPRESSIONS = new Set([6, 7]); // old-style and new-style JPEG
/** Bytes per value of the field types read here: BYTE, SHORT, LONG, UNDEFINED, LONG8. */
const TYPE_SIZES: Readonly<Record<number, number>> = { 1: 1, 3: 2, 4: 4, 7: 1, 16: 8 };

/** Real files have a few dozen tags per IFD and a few hundred pages at most; the caps bound hostile chains. */
const MAX_ENTRIES = 4096;
const MAX_PAGES = 100_000;

/** One tag of an IFD: its type, how many values it has, and where the first of them is. */
interface TiffEntry {
  type: number;
  count: number;
  at: number;
}

/** Integers at an offset, in the file's byte order. */
interface TiffReads {
  u16(at: number): number;
  u32(at: number): number;
  u64(at: number): number;
}

/**
 * The first IFD's entries by tag, and how many pages (IFDs) the file chains together. Values live inline
 * when they all fit in the entry, else at the offset it holds (`at` is resolved either way).
 */
function readTiffDirectory(reader: ByteReader): { entries: Map<number, TiffEntry>; pages: number; read: TiffReads } {
  const little = reader.ascii(0, 2, 'header') === 'II';
  const u16 = (at: number) => (little ? reader.u16le(at, 'IFD') : reader.u16be(at, 'IFD'));
  const u32 = (at: number) => (little ? reader.u32le(at, 'IFD') : reader.u32be(at, 'IFD'));
  const u64 = (at: number) => (little ? u32(at) + u32(at + 4) * 2 ** 32 : u32(at) * 2 ** 32 + u32(at + 4));
  const big = u16(2) === 43;
  // Classic: 2-byte count, 12-byte entries, 4-byte offsets. BigTIFF: 8-byte count, 20-byte entries, 8-byte offsets.
  const offsetAt = big ? u64 : u32;
  const countAt = big ? u64 : u16;
  const entrySize = big ? 20 : 12;
  const countSize = big ? 8 : 2;
  const valueSize = big ? 8 : 4;

  const first = offsetAt(big ? 8 : 4);
  const entries = new Map<number, TiffEntry>();
  const seen = new Set<number>();
  let pages = 0;
  for (let ifd = first; ifd !== 0 && pages < MAX_PAGES; pages++) {
    if (seen.has(ifd)) throw corrupt('TIFF', `its pages loop back to offset ${ifd}`);
    seen.add(ifd);
    const count = countAt(ifd);
    if (count > MAX_ENTRIES) throw corrupt('TIFF', `an IFD declares ${count} tags`);
    if (pages === 0) {
      for (let index = 0; index < count; index++) {
        const entry = ifd + countSize + index * entrySize;
        const type = u16(entry + 2);
        const values = big ? u64(entry + 4) : u32(entry + 4);
        const inline = entry + 4 + valueSize;
        const size = values * (TYPE_SIZES[type] ?? 0);
        entries.set(u16(entry), { type, count: values, at: size <= valueSize ? inline : offsetAt(inline) });
      }
    }
    ifd = offsetAt(ifd + countSize + count * entrySize);
  }
  return { entries, pages, read: { u16, u32, u64 } };
}

/**
 * TIFF (and BigTIFF) facts from the first IFD, and how many pages (IFDs) the file chains together; and the
 * ICC profile the first page carries, from the same read of its directory.
 */
export function probeTiff(bytes: Uint8Array): Probed<TiffInfo> {
  const reader = new ByteReader(bytes, 'TIFF');
  const { entries, pages, read } = readTiffDirectory(reader);
  // The first value of a BYTE, SHORT or LONG (LONG8) tag.
  const tags = new Map<number, number>();
  for (const [tag, { type, at }] of entries) {
    if (type === 3) tags.set(tag, read.u16(at));
    else if (type === 4) tags.set(tag, read.u32(at));
    else if (type === 16) tags.set(tag, read.u64(at));
    else if (type === 1) tags.set(tag, reader.u8(at, 'IFD'));
  }
  const width = tags.get(IMAGE_WIDTH);
  const height = tags.get(IMAGE_LENGTH);
  if (!width || !height) throw corrupt('TIFF', 'its first page declares no size');
  const orientation = tags.get(ORIENTATION);
  const profile = entries.get(ICC_PROFILE);
  return {
    info: {
      mediaType: 'image/tiff',
      bytes: bytes.length,
      width,
      height,
      orientation: orientation !== undefined && isOrientation(orientation) ? orientation : 1,
      frames: 1,
      pages,
      bitDepth: tags.get(BITS_PER_SAMPLE) ?? 1,
      hasAlpha: tags.has(EXTRA_SAMPLES),
      lossless: !JPEG_COMPRESSIONS.has(tags.get(COMPRESSION) ?? 1),
    },
    // Tag 34675 holds the profile's bytes (UNDEFINED or BYTE values); one that lies outside the file is none.
    iccProfile: async () =>
      profile && (profile.type === 7 || profile.type === 1) && profile.at + profile.count <= bytes.length
        ? bytes.subarray(profile.at, profile.at + profile.count)
        : undefined,
  };
}
