import type { MediaType } from './types.js';
import { asciiAt, indexOfAscii } from './formats/byte-reader.js';
import { findSvgRoot } from './formats/svg/text.js';

/** Readers tolerate junk before `%PDF-`; Acrobat looks within the first 1024 bytes. */
const PDF_HEADER_WINDOW = 1024;

/** Bytes of a BMP's DIB header for every version we know (core, info, v2, v3, OS/2 v2 short, v4, v5). */
const BMP_HEADER_SIZES = new Set([12, 16, 40, 52, 56, 64, 108, 124]);

const HEIC_BRANDS = new Set(['heic', 'heix', 'hevc', 'heim', 'heis', 'hevm', 'hevs', 'hevx']);
const HEIF_BRANDS = new Set(['mif1', 'msf1', 'mif2']);
const AVIF_BRANDS = new Set(['avif', 'avis']);

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JXL_CONTAINER_SIGNATURE = [0x00, 0x00, 0x00, 0x0c, 0x4a, 0x58, 0x4c, 0x20, 0x0d, 0x0a, 0x87, 0x0a];

/**
 * Names the format from magic bytes alone; a file name is never consulted.
 * Returns `undefined` when nothing matches.
 */
export function detect(bytes: Uint8Array): MediaType | undefined {
  if (startsWith(bytes, PNG_SIGNATURE)) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  const head = asciiAt(bytes, 0, 12);
  if (head.startsWith('GIF87a') || head.startsWith('GIF89a')) return 'image/gif';
  if (head.startsWith('RIFF') && head.slice(8, 12) === 'WEBP') return 'image/webp';
  if (head.startsWith('BM') && isPlausibleBmp(bytes)) return 'image/bmp';
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) return 'image/tiff';
  if (startsWith(bytes, [0x49, 0x49, 0x2b, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2b])) return 'image/tiff'; // BigTIFF
  if (head.slice(4, 8) === 'ftyp') {
    const isobmff = detectIsoBmffBrand(bytes);
    if (isobmff) return isobmff;
  }
  if (startsWith(bytes, [0xff, 0x0a]) || startsWith(bytes, JXL_CONTAINER_SIGNATURE)) return 'image/jxl';
  if (isPlausibleIco(bytes)) return 'image/x-icon';
  if (findPdfHeader(bytes) >= 0) return 'application/pdf';
  if (findSvgRoot(bytes) !== undefined) return 'image/svg+xml';
  return undefined;
}

/** Offset of `%PDF-` within the first 1024 bytes, or -1. */
export function findPdfHeader(bytes: Uint8Array): number {
  return indexOfAscii(bytes, '%PDF-', 0, PDF_HEADER_WINDOW);
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  if (bytes.length < prefix.length) return false;
  return prefix.every((value, index) => bytes[index] === value);
}

/** "BM" alone is common in text; also require a known DIB header size and at least the header itself. */
function isPlausibleBmp(bytes: Uint8Array): boolean {
  if (bytes.length < 18) return false;
  const dibSize = bytes[14]! | (bytes[15]! << 8) | (bytes[16]! << 16) | (bytes[17]! << 24);
  return BMP_HEADER_SIZES.has(dibSize);
}

/** ICONDIR: reserved 0, type 1 (icon) or 2 (cursor), a non-zero image count; each 16-byte entry has reserved byte 0. */
function isPlausibleIco(bytes: Uint8Array): boolean {
  if (
    !(startsWith(bytes, [0x00, 0x00, 0x01, 0x00]) || startsWith(bytes, [0x00, 0x00, 0x02, 0x00])) ||
    bytes.length < 22
  )
    return false;
  const count = bytes[4]! | (bytes[5]! << 8);
  return count > 0 && bytes[6 + 3] === 0 && bytes.length >= 6 + 16;
}

/** Reads the `ftyp` box: the major brand decides, then the compatible brands (AVIF before HEIC, since AVIF files often list mif1). */
function detectIsoBmffBrand(bytes: Uint8Array): MediaType | undefined {
  const boxSize = ((bytes[0]! << 24) >>> 0) + (bytes[1]! << 16) + (bytes[2]! << 8) + bytes[3]!;
  const boxEnd = Math.min(bytes.length, Math.max(boxSize, 16), 4096);
  const major = asciiAt(bytes, 8, 4);
  const compatible: string[] = [];
  for (let offset = 16; offset + 4 <= boxEnd; offset += 4) compatible.push(asciiAt(bytes, offset, 4));

  if (AVIF_BRANDS.has(major)) return 'image/avif';
  if (HEIC_BRANDS.has(major)) return 'image/heic';
  if (compatible.some((brand) => AVIF_BRANDS.has(brand))) return 'image/avif';
  if (compatible.some((brand) => HEIC_BRANDS.has(brand))) return 'image/heic';
  if (HEIF_BRANDS.has(major) || compatible.some((brand) => HEIF_BRANDS.has(brand))) return 'image/heif';
  return undefined;
}
