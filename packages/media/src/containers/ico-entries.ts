// ICO and CUR directories: which images the file holds, and the one glimpse shows (the largest, the
// deepest colour breaking ties). Entries are PNG files or BMP bodies (a DIB without its file header,
// twice as tall: the colour image, then a 1-bit AND mask).
import { ByteReader, corrupt } from '../probe/byte-reader.js';
import { probePng } from '../probe/png.js';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export interface IcoEntry {
  /** The entry's bytes: a PNG file or a DIB. */
  data: Uint8Array;
  kind: 'png' | 'dib';
  /** The size the image itself declares (the directory's byte fields stop at 256). */
  width: number;
  height: number;
  bitDepth: number;
  /** Whether the entry declares transparency: a PNG with an alpha channel or tRNS; any BMP (its AND mask). */
  hasAlpha: boolean;
}

/** The entry to show: largest by declared area, then by bit depth. Throws E_CORRUPT for a broken directory or image header. */
export function largestIcoEntry(bytes: Uint8Array, format = 'ICO'): IcoEntry & { count: number } {
  const reader = new ByteReader(bytes, format);
  const count = reader.u16le(4, 'directory');
  if (count === 0) throw corrupt(format, 'its directory lists no images');
  let best: { index: number; area: number; depth: number } | undefined;
  for (let index = 0; index < count; index++) {
    const entry = 6 + index * 16;
    const area = (reader.u8(entry, 'directory entry') || 256) * (reader.u8(entry + 1, 'directory entry') || 256);
    const depth = reader.u16le(entry + 6, 'directory entry');
    // Every entry's data must be in the file: one cut short means the file was, even if it is not shown.
    reader.need(
      reader.u32le(entry + 12, 'directory entry'),
      reader.u32le(entry + 8, 'directory entry'),
      `image ${index + 1}`,
    );
    if (!best || area > best.area || (area === best.area && depth > best.depth)) best = { index, area, depth };
  }
  const entry = 6 + (best?.index ?? 0) * 16;
  const size = reader.u32le(entry + 8, 'directory entry');
  const offset = reader.u32le(entry + 12, 'directory entry');
  reader.need(offset, size, 'image');
  const data = bytes.subarray(offset, offset + size);
  const image = new ByteReader(data, format);
  if (PNG_SIGNATURE.every((value, index) => data[index] === value)) {
    return {
      data,
      kind: 'png',
      width: image.u32be(16, 'PNG header'),
      height: image.u32be(20, 'PNG header'),
      bitDepth: image.u8(24, 'PNG header'),
      hasAlpha: probePng(data).hasAlpha ?? false,
      count,
    };
  }
  const dibSize = image.u32le(0, 'BMP header');
  if (dibSize < 40) throw corrupt(format, `entry ${best?.index ?? 0} has a ${dibSize}-byte BMP header`);
  const width = image.i32le(4, 'BMP header');
  const doubledHeight = image.i32le(8, 'BMP header');
  if (width <= 0 || doubledHeight <= 0 || doubledHeight % 2 !== 0)
    throw corrupt(format, `entry ${best?.index ?? 0} declares ${width}×${doubledHeight / 2} pixels`);
  const bitDepth = image.u16le(14, 'BMP header');
  return { data, kind: 'dib', width, height: doubledHeight / 2, bitDepth, hasAlpha: true, count };
}
