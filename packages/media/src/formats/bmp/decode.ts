// BMP decoder: rows go to a row sink a band at a time, read straight from the file's bytes.
import type { Decoder, RowSink } from '../../raster/contract.js';
import { truncated } from '../byte-reader.js';
import { BI_RLE4, BI_RLE8, type BmpHeader, anyAlphaByteSet, bmpRowStride, readBmpHeader } from './probe.js';
import { rasterSink } from '../../raster/raster-rows.js';
import type { BmpInfo, Raster } from '../../types.js';

const FORMAT = 'BMP';

/** Rows are handed over in bands of about this many bytes. */
const BAND_BYTES = 256 * 1024;

/** `decodeBmpRows` as a codec-contract decoder. */
export const bmpDecoder: Decoder<BmpInfo> = async ({ bytes, sink }) => ({
  ...decodeBmpRows(bytes, sink),
  lossless: true,
});

/**
 * Decodes a BMP to RGBA8 rows into `sink`: palette (1/2/4/8-bit), RLE8, RLE4, 16-bit (555 or bit
 * fields), 24-bit, 32-bit (BI_RGB with alpha only if some alpha byte is non-zero, or bit fields with an
 * alpha mask that some pixel uses), bottom-up and top-down. Uncompressed rows are read top row first,
 * wherever the file stores them (a bottom-up file is read from its end back); RLE data can only be read
 * in its stored order, so a bottom-up RLE file hands its rows over bottom row first and says so. Pixels
 * an RLE stream skips are transparent, as in browsers. Holds one band of rows. The caller bounds the
 * size first (`process` refuses what `probe` reports beyond maxInputPixels).
 */
export function decodeBmpRows(bytes: Uint8Array, sink: RowSink): { hasAlpha: boolean } {
  const header = readBmpHeader(bytes);
  const rows = new RowBands(sink, header.width, header.height);
  if (header.compression === BI_RLE8 || header.compression === BI_RLE4) {
    sink.start({ width: header.width, height: header.height, mayHaveAlpha: true, bottomUp: !header.topDown });
    decodeRle(bytes, header, rows);
    return { hasAlpha: rows.sawTransparent };
  }
  // Check the pixel data is all there before the first row goes out.
  const stride = bmpRowStride(header);
  const needed =
    header.pixelOffset + stride * (header.height - 1) + Math.ceil((header.bitsPerPixel * header.width) / 8);
  if (needed > bytes.length) throw truncated(FORMAT, 'pixel data', needed, bytes.length);
  const decodeRow = rowDecoder(bytes, header);
  sink.start({ width: header.width, height: header.height, mayHaveAlpha: decodeRow.mayHaveAlpha });
  for (let y = 0; y < header.height; y++) {
    const stored = header.topDown ? y : header.height - 1 - y;
    decodeRow.decode(header.pixelOffset + stored * stride, rows.next());
  }
  rows.flush();
  return { hasAlpha: rows.sawTransparent };
}

/** The whole image decoded, top row first, as one raster. */
export function decodeBmp(bytes: Uint8Array): { raster: Raster; hasAlpha: boolean } {
  const sink = rasterSink();
  const { hasAlpha } = decodeBmpRows(bytes, sink);
  return { raster: sink.raster(), hasAlpha };
}

/** A band of output rows filled one row at a time and handed to the sink when full. */
class RowBands {
  private readonly band: Uint8Array;
  private readonly bandRows: number;
  private filled = 0;
  private given = 0;
  /** Whether any row handed over has a pixel that is not fully opaque. */
  sawTransparent = false;

  constructor(
    private readonly sink: RowSink,
    private readonly width: number,
    private readonly height: number,
  ) {
    this.bandRows = Math.max(1, Math.min(height, Math.floor(BAND_BYTES / (width * 4))));
    this.band = new Uint8Array(this.bandRows * width * 4);
  }

  /** The next row to fill (cleared to transparent), as RGBA bytes. */
  next(): Uint8Array {
    if (this.filled === this.bandRows) this.flush();
    const rowBytes = this.width * 4;
    const row = this.band.subarray(this.filled * rowBytes, (this.filled + 1) * rowBytes);
    this.filled++;
    return row;
  }

  flush(): void {
    if (this.filled === 0) return;
    const bytes = this.filled * this.width * 4;
    for (let i = 3; i < bytes && !this.sawTransparent; i += 4) if (this.band[i] !== 255) this.sawTransparent = true;
    this.sink.write(this.band.subarray(0, bytes), this.filled);
    this.given += this.filled;
    this.filled = 0;
    this.band.fill(0);
  }

  /** Rows handed over or in the band so far. */
  get count(): number {
    return this.given + this.filled;
  }

  /** Hands over transparent rows up to `rows` in all (an RLE stream that skips or stops early). */
  padTo(rows: number): void {
    while (this.count < Math.min(rows, this.height)) this.next();
  }
}

/** Decodes one stored row of an uncompressed BMP, starting at byte `at`, into `out`. */
interface RowDecoder {
  mayHaveAlpha: boolean;
  decode(at: number, out: Uint8Array): void;
}

function rowDecoder(bytes: Uint8Array, header: BmpHeader): RowDecoder {
  if (header.bitsPerPixel <= 8) return paletteRows(bytes, header);
  if (header.bitsPerPixel === 24) return { mayHaveAlpha: false, decode: (at, out) => decode24(bytes, header, at, out) };
  return maskedRows(bytes, header);
}

function readPalette(bytes: Uint8Array, header: BmpHeader): Uint8Array {
  // Always 256 entries so out-of-range indices read opaque black rather than undefined.
  const palette = new Uint8Array(256 * 4);
  for (let i = 0; i < 256; i++) palette[i * 4 + 3] = 255;
  for (let i = 0; i < header.paletteColors; i++) {
    const at = header.paletteOffset + i * header.paletteEntrySize;
    palette[i * 4] = bytes[at + 2]!;
    palette[i * 4 + 1] = bytes[at + 1]!;
    palette[i * 4 + 2] = bytes[at]!;
  }
  return palette;
}

function paletteRows(bytes: Uint8Array, header: BmpHeader): RowDecoder {
  const palette = readPalette(bytes, header);
  const bits = header.bitsPerPixel;
  const perByte = 8 / bits;
  const indexMask = (1 << bits) - 1;
  return {
    mayHaveAlpha: false,
    decode(source, out) {
      let target = 0;
      for (let x = 0; x < header.width; x++) {
        const byte = bytes[source + Math.floor(x / perByte)]!;
        const shift = 8 - bits * ((x % perByte) + 1);
        const index = ((byte >> shift) & indexMask) * 4;
        out[target++] = palette[index]!;
        out[target++] = palette[index + 1]!;
        out[target++] = palette[index + 2]!;
        out[target++] = 255;
      }
    },
  };
}

function decode24(bytes: Uint8Array, header: BmpHeader, at: number, out: Uint8Array): void {
  let source = at;
  let target = 0;
  for (let x = 0; x < header.width; x++) {
    out[target++] = bytes[source + 2]!;
    out[target++] = bytes[source + 1]!;
    out[target++] = bytes[source]!;
    out[target++] = 255;
    source += 3;
  }
}

/** A mask as shift + scale to 8 bits; a zero mask reads as `fallback`. */
interface Channel {
  mask: number;
  shift: number;
  max: number;
}

function channel(mask: number): Channel {
  if (mask === 0) return { mask: 0, shift: 0, max: 0 };
  let shift = 0;
  while (((mask >>> shift) & 1) === 0) shift++;
  let max = mask >>> shift;
  // Only the lowest contiguous run of set bits counts; stray higher bits are ignored.
  let run = 0;
  while (run < 32 && ((max >>> run) & 1) === 1) run++;
  max = run >= 32 ? 0xffffffff : 2 ** run - 1;
  return { mask, shift, max };
}

function channelValue(pixel: number, c: Channel, fallback: number): number {
  if (c.max === 0) return fallback;
  const value = (pixel >>> c.shift) & c.max;
  return c.max === 255 ? value : Math.round((value * 255) / c.max);
}

function maskedRows(bytes: Uint8Array, header: BmpHeader): RowDecoder {
  const bytesPerPixel = header.bitsPerPixel / 8;
  const pixelAt = (at: number) =>
    bytesPerPixel === 2
      ? bytes[at]! | (bytes[at + 1]! << 8)
      : (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0;
  const red = channel(header.masks.red);
  const green = channel(header.masks.green);
  const blue = channel(header.masks.blue);
  // An alpha channel that is zero everywhere is a writer that did not fill it, not an invisible image:
  // looked for before the first row goes out, so such a file reads as opaque.
  const declared = channel(header.alphaIfPresent ? 0xff000000 : header.masks.alpha);
  const used = header.alphaIfPresent
    ? anyAlphaByteSet(bytes, header)
    : declared.max !== 0 && anyAlphaValue(bytes, header, pixelAt, declared);
  const alpha = used ? declared : channel(0);
  return {
    mayHaveAlpha: used,
    decode(at, out) {
      let source = at;
      let target = 0;
      for (let x = 0; x < header.width; x++) {
        const pixel = pixelAt(source);
        out[target] = channelValue(pixel, red, 0);
        out[target + 1] = channelValue(pixel, green, 0);
        out[target + 2] = channelValue(pixel, blue, 0);
        out[target + 3] = channelValue(pixel, alpha, 255);
        target += 4;
        source += bytesPerPixel;
      }
    },
  };
}

/** Whether any pixel has a non-zero value in the alpha channel `alpha`. */
function anyAlphaValue(
  _bytes: Uint8Array,
  header: BmpHeader,
  pixelAt: (at: number) => number,
  alpha: Channel,
): boolean {
  const stride = bmpRowStride(header);
  const bytesPerPixel = header.bitsPerPixel / 8;
  for (let row = 0; row < header.height; row++) {
    for (let x = 0, at = header.pixelOffset + row * stride; x < header.width; x++, at += bytesPerPixel) {
      if (channelValue(pixelAt(at), alpha, 255) !== 0) return true;
    }
  }
  return false;
}

/** RLE8/RLE4: runs and absolute runs of palette indices, with end-of-line, end-of-bitmap and delta escapes. */
function decodeRle(bytes: Uint8Array, header: BmpHeader, rows: RowBands): void {
  const palette = readPalette(bytes, header);
  const four = header.compression === BI_RLE4;
  const { width, height } = header;
  let x = 0;
  let row = 0;
  let out = rows.next();
  let at = header.pixelOffset;
  /** Moves to stored row `next`, handing over the rows before it. */
  const toRow = (next: number): void => {
    while (row < next && row < height) {
      row++;
      if (row < height) out = rows.next();
    }
  };
  const put = (index: number): void => {
    if (x < width && row < height) {
      const target = x * 4;
      out[target] = palette[index * 4]!;
      out[target + 1] = palette[index * 4 + 1]!;
      out[target + 2] = palette[index * 4 + 2]!;
      out[target + 3] = 255;
    }
    x++;
  };
  while (row < height) {
    if (at + 1 >= bytes.length) throw truncated(FORMAT, 'RLE data', at + 2, bytes.length);
    const count = bytes[at]!;
    const value = bytes[at + 1]!;
    at += 2;
    if (count > 0) {
      for (let i = 0; i < count; i++) put(four ? (i & 1 ? value & 0x0f : value >> 4) : value);
    } else if (value === 0) {
      x = 0;
      toRow(row + 1);
    } else if (value === 1) {
      break;
    } else if (value === 2) {
      if (at + 1 >= bytes.length) throw truncated(FORMAT, 'RLE delta', at + 2, bytes.length);
      x += bytes[at]!;
      toRow(row + bytes[at + 1]!);
      at += 2;
    } else {
      const dataBytes = four ? Math.ceil(value / 2) : value;
      if (at + dataBytes > bytes.length) throw truncated(FORMAT, 'RLE absolute run', at + dataBytes, bytes.length);
      for (let i = 0; i < value; i++)
        put(four ? (i & 1 ? bytes[at + (i >> 1)]! & 0x0f : bytes[at + (i >> 1)]! >> 4) : bytes[at + i]!);
      at += dataBytes + (dataBytes & 1); // absolute runs are padded to 16 bits
    }
  }
  rows.padTo(height);
  rows.flush();
}
