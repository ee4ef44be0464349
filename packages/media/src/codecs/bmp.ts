import type { Raster } from '../types.js';
import { truncated } from '../probe/byte-reader.js';
import { BI_RLE4, BI_RLE8, type BmpHeader, anyAlphaByteSet, bmpRowStride, readBmpHeader } from '../probe/bmp.js';

const FORMAT = 'BMP';

/**
 * Decodes a BMP to RGBA8: palette (1/2/4/8-bit), RLE8, RLE4, 16-bit (555 or bit fields), 24-bit, 32-bit
 * (BI_RGB with alpha only if some alpha byte is non-zero, or bit fields with an alpha mask),
 * bottom-up and top-down. Pixels an RLE stream skips are transparent, as in browsers.
 * The caller bounds the size first (`process` refuses what `probe` reports beyond maxInputPixels).
 */
export function decodeBmp(bytes: Uint8Array): { raster: Raster; hasAlpha: boolean } {
  const header = readBmpHeader(bytes);
  const pixels = header.width * header.height;
  const isRle = header.compression === BI_RLE8 || header.compression === BI_RLE4;
  if (!isRle) {
    // Check the pixel data is all there before allocating the output.
    const stride = bmpRowStride(header);
    const needed = header.pixelOffset + stride * (header.height - 1) + Math.ceil((header.bitsPerPixel * header.width) / 8);
    if (needed > bytes.length) throw truncated(FORMAT, 'pixel data', needed, bytes.length);
  }

  const data = new Uint8Array(pixels * 4);
  const raster: Raster = { data, width: header.width, height: header.height };
  if (isRle) {
    decodeRle(bytes, header, data);
    return { raster, hasAlpha: hasTransparentPixel(data) };
  }
  if (header.bitsPerPixel <= 8) decodePalette(bytes, header, data);
  else if (header.bitsPerPixel === 24) decode24(bytes, header, data);
  else decodeMasked(bytes, header, data);
  return { raster, hasAlpha: hasTransparentPixel(data) };
}

/** Output row for the n-th stored row. */
function outputRow(header: BmpHeader, storedRow: number): number {
  return header.topDown ? storedRow : header.height - 1 - storedRow;
}

function readPalette(bytes: Uint8Array, header: BmpHeader): Uint8Array {
  // Always 256 entries so out-of-range indices read opaque black rather than undefined.
  const palette = new Uint8Array(256 * 4);
  for (let i = 0; i < 256; i++) palette[i * 4 + 3] = 255;
  for (let i = 0; i < header.paletteColors; i++) {
    const at = header.paletteOffset + i * header.paletteEntrySize;
    palette[i * 4] = bytes[at + 2];
    palette[i * 4 + 1] = bytes[at + 1];
    palette[i * 4 + 2] = bytes[at];
  }
  return palette;
}

function decodePalette(bytes: Uint8Array, header: BmpHeader, out: Uint8Array): void {
  const palette = readPalette(bytes, header);
  const stride = bmpRowStride(header);
  const bits = header.bitsPerPixel;
  const perByte = 8 / bits;
  const indexMask = (1 << bits) - 1;
  for (let row = 0; row < header.height; row++) {
    const source = header.pixelOffset + row * stride;
    let target = outputRow(header, row) * header.width * 4;
    for (let x = 0; x < header.width; x++) {
      const byte = bytes[source + Math.floor(x / perByte)];
      const shift = 8 - bits * ((x % perByte) + 1);
      const index = ((byte >> shift) & indexMask) * 4;
      out[target++] = palette[index];
      out[target++] = palette[index + 1];
      out[target++] = palette[index + 2];
      out[target++] = 255;
    }
  }
}

function decode24(bytes: Uint8Array, header: BmpHeader, out: Uint8Array): void {
  const stride = bmpRowStride(header);
  for (let row = 0; row < header.height; row++) {
    let source = header.pixelOffset + row * stride;
    let target = outputRow(header, row) * header.width * 4;
    for (let x = 0; x < header.width; x++) {
      out[target++] = bytes[source + 2];
      out[target++] = bytes[source + 1];
      out[target++] = bytes[source];
      out[target++] = 255;
      source += 3;
    }
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

function decodeMasked(bytes: Uint8Array, header: BmpHeader, out: Uint8Array): void {
  const stride = bmpRowStride(header);
  const bytesPerPixel = header.bitsPerPixel / 8;
  const alphaMask = header.alphaIfPresent ? (anyAlphaByteSet(bytes, header) ? 0xff000000 : 0) : header.masks.alpha;
  const red = channel(header.masks.red);
  const green = channel(header.masks.green);
  const blue = channel(header.masks.blue);
  const alpha = channel(alphaMask);
  let anyAlpha = false;
  for (let row = 0; row < header.height; row++) {
    let source = header.pixelOffset + row * stride;
    let target = outputRow(header, row) * header.width * 4;
    for (let x = 0; x < header.width; x++) {
      const pixel =
        bytesPerPixel === 2
          ? bytes[source] | (bytes[source + 1] << 8)
          : (bytes[source] | (bytes[source + 1] << 8) | (bytes[source + 2] << 16) | (bytes[source + 3] << 24)) >>> 0;
      out[target] = channelValue(pixel, red, 0);
      out[target + 1] = channelValue(pixel, green, 0);
      out[target + 2] = channelValue(pixel, blue, 0);
      const a = channelValue(pixel, alpha, 255);
      out[target + 3] = a;
      if (a !== 0) anyAlpha = true;
      target += 4;
      source += bytesPerPixel;
    }
  }
  // An alpha channel that is zero everywhere is a writer that did not fill it, not an invisible image.
  if (alpha.max !== 0 && !anyAlpha) for (let i = 3; i < out.length; i += 4) out[i] = 255;
}

/** RLE8/RLE4: runs and absolute runs of palette indices, with end-of-line, end-of-bitmap and delta escapes. */
function decodeRle(bytes: Uint8Array, header: BmpHeader, out: Uint8Array): void {
  const palette = readPalette(bytes, header);
  const four = header.compression === BI_RLE4;
  const { width, height } = header;
  let x = 0;
  let row = 0;
  let at = header.pixelOffset;
  const put = (index: number): void => {
    if (x < width && row < height) {
      const target = (outputRow(header, row) * width + x) * 4;
      out[target] = palette[index * 4];
      out[target + 1] = palette[index * 4 + 1];
      out[target + 2] = palette[index * 4 + 2];
      out[target + 3] = 255;
    }
    x++;
  };
  while (row < height) {
    if (at + 1 >= bytes.length) throw truncated(FORMAT, 'RLE data', at + 2, bytes.length);
    const count = bytes[at];
    const value = bytes[at + 1];
    at += 2;
    if (count > 0) {
      for (let i = 0; i < count; i++) put(four ? (i & 1 ? value & 0x0f : value >> 4) : value);
    } else if (value === 0) {
      x = 0;
      row++;
    } else if (value === 1) {
      return;
    } else if (value === 2) {
      if (at + 1 >= bytes.length) throw truncated(FORMAT, 'RLE delta', at + 2, bytes.length);
      x += bytes[at];
      row += bytes[at + 1];
      at += 2;
    } else {
      const dataBytes = four ? Math.ceil(value / 2) : value;
      if (at + dataBytes > bytes.length) throw truncated(FORMAT, 'RLE absolute run', at + dataBytes, bytes.length);
      for (let i = 0; i < value; i++) put(four ? (i & 1 ? bytes[at + (i >> 1)] & 0x0f : bytes[at + (i >> 1)] >> 4) : bytes[at + i]);
      at += dataBytes + (dataBytes & 1); // absolute runs are padded to 16 bits
    }
  }
}

function hasTransparentPixel(data: Uint8Array): boolean {
  for (let i = 3; i < data.length; i += 4) if (data[i] !== 255) return true;
  return false;
}
