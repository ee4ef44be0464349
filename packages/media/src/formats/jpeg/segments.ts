// JPEG marker segments: the one reader and writer that probe, ICC profiles and every other JPEG header
// use. A header is SOI, then segments (0xFF, marker, 2-byte big-endian length counting itself, body),
// up to the first scan (SOS), after which entropy-coded data follows.
import { ByteReader, corrupt } from '../byte-reader.js';

const FORMAT = 'JPEG';
export const SOI = 0xd8;
export const EOI = 0xd9;
export const SOS = 0xda;
export const APP0 = 0xe0;
export const APP1 = 0xe1;
export const APP2 = 0xe2;

/** One marker segment. */
export interface JpegSegment {
  marker: number;
  /** Offset of the segment's 0xFF. */
  start: number;
  /** Offset of the body (after the length field). */
  body: number;
  /** Just past the segment. */
  end: number;
}

/** Markers without a length field: TEM, RST0–7, SOI, EOI. */
function isStandalone(marker: number): boolean {
  return marker === 0x01 || (marker >= 0xd0 && marker <= 0xd9);
}

/**
 * The segments after SOI, in order, through the first SOS (whose body is the scan header; the image data
 * starts at its `end`). Like libjpeg, it steps over stray bytes and fill bytes between segments and over
 * standalone markers. Throws `E_CORRUPT` when the header is malformed or cut short, or when EOI comes
 * before any scan; when the bytes end first, the walk simply stops (the caller says what was missing).
 */
export function* jpegSegments(bytes: Uint8Array): Generator<JpegSegment> {
  const reader = new ByteReader(bytes, FORMAT);
  let offset = 2;
  while (offset < bytes.length) {
    while (offset < bytes.length && bytes[offset] !== 0xff) offset++; // stray bytes some writers pad with
    while (offset < bytes.length && bytes[offset] === 0xff) offset++; // fill bytes
    if (offset >= bytes.length) return;
    const start = offset - 1;
    const marker = reader.u8(offset, 'marker');
    offset++;
    if (isStandalone(marker)) {
      if (marker === EOI) throw corrupt(FORMAT, 'it ends (EOI) before any image data');
      continue;
    }
    if (marker === 0x00) continue; // a stuffed 0xFF00 outside a scan: stray data, keep looking
    const name = `0xFF${marker.toString(16).toUpperCase()}`;
    const length = reader.u16be(offset, 'segment length');
    if (length < 2) throw corrupt(FORMAT, `segment ${name} has length ${length}`);
    reader.need(offset, length, `${name} segment`);
    const segment = { marker, start, body: offset + 2, end: offset + length };
    yield segment;
    if (marker === SOS) return;
    offset = segment.end;
  }
}

/** The segments before the first scan and where the scan (its SOS segment) starts; undefined when malformed. */
export function jpegHeader(bytes: Uint8Array): { segments: JpegSegment[]; scanStart: number } | undefined {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== SOI) return undefined;
  const segments: JpegSegment[] = [];
  try {
    for (const segment of jpegSegments(bytes)) {
      if (segment.marker === SOS) return { segments, scanStart: segment.start };
      segments.push(segment);
    }
  } catch {
    return undefined;
  }
  return undefined;
}

/** A segment with `marker` and `body` (at most 65,533 bytes). */
export function jpegSegment(marker: number, body: Uint8Array): Uint8Array {
  if (body.length > 0xffff - 2) throw new Error(`a JPEG segment holds at most 65533 bytes, not ${body.length}`);
  const segment = new Uint8Array(4 + body.length);
  const length = body.length + 2;
  segment.set([0xff, marker, length >> 8, length & 0xff]);
  segment.set(body, 4);
  return segment;
}
