import type { BmpInfo } from '../../types.js';
import { MediaError } from '../../errors.js';
import { ByteReader, corrupt } from '../byte-reader.js';

const FORMAT = 'BMP';

export const BI_RGB = 0;
export const BI_RLE8 = 1;
export const BI_RLE4 = 2;
export const BI_BITFIELDS = 3;
export const BI_ALPHABITFIELDS = 6;

/** A channel mask from the header, e.g. 0x7C00 for 5-bit red in a 555 pixel. */
export interface ChannelMasks {
  red: number;
  green: number;
  blue: number;
  alpha: number;
}

/** Everything the decoder needs from a BMP's file and DIB headers. */
export interface BmpHeader {
  width: number;
  /** Always positive; `topDown` says whether the first stored row is the top one. */
  height: number;
  topDown: boolean;
  bitsPerPixel: number;
  compression: number;
  pixelOffset: number;
  paletteOffset: number;
  /** 3 (RGBTRIPLE, core headers) or 4 (RGBQUAD). */
  paletteEntrySize: number;
  paletteColors: number;
  /** For 16 and 32 bits per pixel; `alpha` 0 means opaque. BI_RGB 32-bit files use `alphaIfPresent`. */
  masks: ChannelMasks;
  /** 32-bit BI_RGB: the fourth byte is alpha only if some pixel has a non-zero one. */
  alphaIfPresent: boolean;
}

/** Bytes per stored row: rows are padded to 4 bytes. */
export function bmpRowStride(header: BmpHeader): number {
  return Math.floor((header.bitsPerPixel * header.width + 31) / 32) * 4;
}

/** Reads and validates the BMP file header and DIB header (core, OS/2 v2, info, v2–v5). */
export function readBmpHeader(bytes: Uint8Array): BmpHeader {
  const reader = new ByteReader(bytes, FORMAT);
  const pixelOffset = reader.u32le(10, 'file header');
  const dibSize = reader.u32le(14, 'DIB header size');
  reader.need(14, dibSize, 'DIB header');

  let width: number;
  let rawHeight: number;
  let bitsPerPixel: number;
  let compression = BI_RGB;
  let colorsUsed = 0;
  let paletteEntrySize = 4;
  if (dibSize === 12) {
    width = reader.u16le(18, 'width');
    rawHeight = reader.u16le(20, 'height');
    bitsPerPixel = reader.u16le(24, 'bit count');
    paletteEntrySize = 3;
  } else if (dibSize >= 16) {
    width = reader.i32le(18, 'width');
    rawHeight = reader.i32le(22, 'height');
    bitsPerPixel = reader.u16le(28, 'bit count');
    if (dibSize >= 20) compression = reader.u32le(30, 'compression');
    if (dibSize >= 36) colorsUsed = reader.u32le(46, 'colours used');
    // OS/2 2.x headers (16 or 64 bytes) reuse compression 3 and 4 for Huffman and RLE24.
    if ((dibSize === 16 || dibSize === 64) && compression >= 3) {
      throw unsupported(`OS/2 compression ${compression}`);
    }
  } else {
    throw corrupt(FORMAT, `unknown DIB header size ${dibSize}`);
  }

  if (width <= 0 || rawHeight === 0)
    throw corrupt(FORMAT, `its size is ${width}x${rawHeight}`, { width, height: rawHeight });
  if (compression === 4 || compression === 5) throw unsupported(compression === 4 ? 'embedded JPEG' : 'embedded PNG');
  if (bitsPerPixel === 64) throw unsupported('64-bit pixels (16 bits per channel, fixed-point)');
  if (!isValidCombination(bitsPerPixel, compression)) {
    throw corrupt(FORMAT, `bit count ${bitsPerPixel} with compression ${compression} is not a valid combination`);
  }

  const extraMasks =
    dibSize === 40 ? (compression === BI_BITFIELDS ? 12 : compression === BI_ALPHABITFIELDS ? 16 : 0) : 0;
  const paletteOffset = 14 + dibSize + extraMasks;
  const masks = readMasks(reader, bitsPerPixel, compression, dibSize);

  let paletteColors = 0;
  if (bitsPerPixel <= 8) {
    paletteColors = colorsUsed > 0 && colorsUsed < 1 << bitsPerPixel ? colorsUsed : 1 << bitsPerPixel;
    if (pixelOffset > paletteOffset)
      paletteColors = Math.min(paletteColors, Math.floor((pixelOffset - paletteOffset) / paletteEntrySize));
    if (paletteColors === 0) throw corrupt(FORMAT, 'it has a palette format but no palette');
    reader.need(paletteOffset, paletteColors * paletteEntrySize, 'palette');
  }
  if (pixelOffset < 14 + dibSize || pixelOffset >= bytes.length)
    throw corrupt(FORMAT, `pixel data offset ${pixelOffset} is outside the file`);

  return {
    width,
    height: Math.abs(rawHeight),
    topDown: rawHeight < 0,
    bitsPerPixel,
    compression,
    pixelOffset,
    paletteOffset,
    paletteEntrySize,
    paletteColors,
    masks,
    alphaIfPresent: bitsPerPixel === 32 && compression === BI_RGB,
  };
}

/** BMP header facts; for 32-bit BI_RGB files the alpha bytes are scanned (no decoding) to see if any is used. */
export function probeBmp(bytes: Uint8Array): BmpInfo {
  const header = readBmpHeader(bytes);
  let hasAlpha = header.masks.alpha !== 0;
  if (header.alphaIfPresent) hasAlpha = anyAlphaByteSet(bytes, header);
  return {
    mediaType: 'image/bmp',
    bytes: bytes.length,
    width: header.width,
    height: header.height,
    orientation: 1,
    frames: 1,
    hasAlpha,
    bitDepth: bitsPerChannel(header),
  };
}

/** Like PNG's bit depth: index bits for palette images, otherwise the widest colour channel (5 for 555, 8 for 24-bit). */
function bitsPerChannel(header: BmpHeader): number {
  if (header.bitsPerPixel <= 8) return header.bitsPerPixel;
  const { red, green, blue } = header.masks;
  return Math.max(...[red, green, blue].map(countBits));
}

function countBits(mask: number): number {
  let count = 0;
  for (let bits = mask >>> 0; bits !== 0; bits >>>= 1) count += bits & 1;
  return count;
}

/** 32-bit BI_RGB: whether any stored pixel has a non-zero fourth byte (within the bytes present). */
export function anyAlphaByteSet(bytes: Uint8Array, header: BmpHeader): boolean {
  const stride = bmpRowStride(header);
  for (let row = 0; row < header.height; row++) {
    const start = header.pixelOffset + row * stride;
    const end = Math.min(start + header.width * 4, bytes.length);
    for (let at = start + 3; at < end; at += 4) if (bytes[at] !== 0) return true;
    if (end < start + header.width * 4) return false;
  }
  return false;
}

function isValidCombination(bitsPerPixel: number, compression: number): boolean {
  switch (compression) {
    case BI_RGB:
      return [1, 2, 4, 8, 16, 24, 32].includes(bitsPerPixel);
    case BI_RLE8:
      return bitsPerPixel === 8;
    case BI_RLE4:
      return bitsPerPixel === 4;
    case BI_BITFIELDS:
    case BI_ALPHABITFIELDS:
      return bitsPerPixel === 16 || bitsPerPixel === 32;
    default:
      return false;
  }
}

function readMasks(reader: ByteReader, bitsPerPixel: number, compression: number, dibSize: number): ChannelMasks {
  if (compression === BI_BITFIELDS || compression === BI_ALPHABITFIELDS) {
    // In a 40-byte header the masks follow it; in v2+ headers they are part of it. Same offsets either way.
    const withAlpha = compression === BI_ALPHABITFIELDS || dibSize >= 56;
    const masks = {
      red: reader.u32le(54, 'red mask'),
      green: reader.u32le(58, 'green mask'),
      blue: reader.u32le(62, 'blue mask'),
      alpha: withAlpha ? reader.u32le(66, 'alpha mask') : 0,
    };
    if (masks.red === 0 && masks.green === 0 && masks.blue === 0)
      throw corrupt(FORMAT, 'its colour masks are all zero');
    return masks;
  }
  if (bitsPerPixel === 16) return { red: 0x7c00, green: 0x03e0, blue: 0x001f, alpha: 0 };
  return { red: 0xff0000, green: 0x00ff00, blue: 0x0000ff, alpha: 0 };
}

function unsupported(what: string): MediaError {
  return new MediaError(
    'E_UNSUPPORTED',
    `This BMP uses ${what}, which glimpse does not decode. Convert it to PNG first.`,
    { format: FORMAT },
  );
}
