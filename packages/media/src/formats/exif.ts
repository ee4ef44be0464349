import type { Orientation } from '../types.js';

const ORIENTATION_TAG = 0x0112;
/** IFD entries are 12 bytes; a real IFD0 has a few dozen. The cap bounds the loop on hostile counts. */
const MAX_IFD_ENTRIES = 1024;

/** TIFF field types we can read a single unsigned integer from. */
const SHORT = 3;
const LONG = 4;
const BYTE = 1;

/**
 * EXIF orientation from TIFF-structured bytes (the payload of a JPEG APP1 after `Exif\0\0`, a PNG eXIf chunk,
 * a WebP EXIF chunk, or a TIFF file). A leading `Exif\0\0` is skipped. Broken metadata never fails an image:
 * anything unreadable or out of range gives 1 (upright), as browsers do.
 */
export function readExifOrientation(tiffBytes: Uint8Array): Orientation {
  const value = readTiffIfd0(tiffBytes).get(ORIENTATION_TAG);
  return value !== undefined && isOrientation(value) ? value : 1;
}

export function isOrientation(value: number): value is Orientation {
  return Number.isInteger(value) && value >= 1 && value <= 8;
}

/**
 * The first value of every integer-typed tag in IFD0 (BYTE, SHORT, LONG with count ≥ 1), keyed by tag.
 * Returns an empty map for anything that is not a readable TIFF header.
 */
export function readTiffIfd0(tiffBytes: Uint8Array): Map<number, number> {
  const tags = new Map<number, number>();
  const bytes = stripExifPrefix(tiffBytes);
  if (bytes.length < 8) return tags;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const order = String.fromCharCode(bytes[0]!, bytes[1]!);
  if (order !== 'II' && order !== 'MM') return tags;
  const little = order === 'II';
  if (view.getUint16(2, little) !== 42) return tags;
  const ifdOffset = view.getUint32(4, little);
  if (ifdOffset < 8 || ifdOffset + 2 > bytes.length) return tags;

  const count = Math.min(view.getUint16(ifdOffset, little), MAX_IFD_ENTRIES);
  for (let index = 0; index < count; index++) {
    const entry = ifdOffset + 2 + index * 12;
    if (entry + 12 > bytes.length) break;
    const tag = view.getUint16(entry, little);
    const type = view.getUint16(entry + 2, little);
    const valueCount = view.getUint32(entry + 4, little);
    if (valueCount < 1 || tags.has(tag)) continue;
    // The first value sits inline at entry+8 for our types (a SHORT/BYTE array spills only when > 4 bytes; its first value is then at the offset).
    const inline = type === LONG ? valueCount === 1 : type === SHORT ? valueCount <= 2 : valueCount <= 4;
    let at = entry + 8;
    if (!inline) {
      at = view.getUint32(entry + 8, little);
      if (at + 4 > bytes.length) continue;
    }
    if (type === SHORT) tags.set(tag, view.getUint16(at, little));
    else if (type === LONG) tags.set(tag, view.getUint32(at, little));
    else if (type === BYTE) tags.set(tag, bytes[at]!);
  }
  return tags;
}

function stripExifPrefix(bytes: Uint8Array): Uint8Array {
  const hasPrefix =
    bytes.length >= 6 &&
    bytes[0] === 0x45 &&
    bytes[1] === 0x78 &&
    bytes[2] === 0x69 &&
    bytes[3] === 0x66 &&
    bytes[4] === 0 &&
    bytes[5] === 0;
  return hasPrefix ? bytes.subarray(6) : bytes;
}
