// ICO and CUR directories: which images the file holds, and the one glimpse shows (the largest, the
// deepest colour breaking ties). Entries are PNG files or BMP bodies (a DIB without its file header,
// twice as tall: the colour image, then a 1-bit AND mask).
import { ByteReader, corrupt } from '../byte-reader.js';
import { probePng } from '../png/probe.js';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The entry glimpse shows: a PNG file, or a DIB (a BMP body without its file header) and its layout. */
export type IcoEntry = IcoEntryFacts & ({ kind: 'png' } | { kind: 'dib'; dib: DibLayout });

interface IcoEntryFacts {
  /** The entry's bytes: a PNG file or a DIB. */
  data: Uint8Array;
  /** The size the image itself declares (the directory's byte fields stop at 256). */
  width: number;
  height: number;
  bitDepth: number;
  /** Whether the entry declares transparency: a PNG with an alpha channel or tRNS; a 32-bit BMP; a set AND-mask bit. */
  hasAlpha: boolean;
}

/** Where a DIB's colour rows start, and its AND mask (bottom-up, 1 bit per pixel, set = transparent). */
export interface DibLayout {
  pixelOffset: number;
  maskStart: number;
  maskStride: number;
}

const BI_BITFIELDS = 3;

/** Where a DIB's colour rows and AND mask are (after the header, any bitfield masks and the palette). */
function dibLayout(image: ByteReader, width: number, height: number, bitsPerPixel: number): DibLayout {
  const dibSize = image.u32le(0, 'BMP header');
  const compression = image.u32le(16, 'BMP header');
  const colorsUsed = image.u32le(32, 'BMP header');
  const masks = dibSize === 40 && compression === BI_BITFIELDS ? 12 : 0;
  const paletteColors =
    bitsPerPixel <= 8 ? (colorsUsed > 0 && colorsUsed < 1 << bitsPerPixel ? colorsUsed : 1 << bitsPerPixel) : 0;
  const pixelOffset = dibSize + masks + paletteColors * 4;
  const colourStride = Math.floor((bitsPerPixel * width + 31) / 32) * 4;
  return { pixelOffset, maskStart: pixelOffset + colourStride * height, maskStride: Math.floor((width + 31) / 32) * 4 };
}

/**
 * Calls `transparent(x, row)` for each pixel the AND mask marks transparent (`row` counted from the bottom, as
 * stored; bits past a row's width are padding). A mask cut short marks none.
 */
export function forEachMaskedPixel(
  dib: Uint8Array,
  { maskStart, maskStride }: DibLayout,
  width: number,
  height: number,
  transparent: (x: number, row: number) => void,
): void {
  if (maskStart + maskStride * height > dib.length) return;
  for (let row = 0; row < height; row++)
    for (let x = 0; x < width; x++)
      if (((dib[maskStart + row * maskStride + (x >> 3)] ?? 0) >> (7 - (x & 7))) & 1) transparent(x, row);
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
  const height = doubledHeight / 2;
  const dib = dibLayout(image, width, height, bitDepth);
  let masked = false;
  forEachMaskedPixel(data, dib, width, height, () => {
    masked = true;
  });
  const hasAlpha = bitDepth === 32 || masked;
  return { data, kind: 'dib', width, height, bitDepth, hasAlpha, dib, count };
}
