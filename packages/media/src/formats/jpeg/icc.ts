// A JPEG's ICC profile: APP2 segments "ICC_PROFILE\0", each with its sequence number (from 1), the segment
// count and a part of the profile, read back in sequence order and written right after APP0.
import { MediaError } from '../../errors.js';
import { asciiAt } from '../byte-reader.js';
import { concatBytes } from '../bytes.js';
import { ascii } from '../icc-profile.js';
import { APP0, APP2, jpegHeader, jpegSegment, type JpegSegment } from './segments.js';

const JPEG_ICC_TAG = 'ICC_PROFILE\0';
const JPEG_ICC_PREFIX = JPEG_ICC_TAG.length + 2;
/** A segment's length field counts itself (2 bytes) and at most 65,535 bytes in all. */
const JPEG_PROFILE_BYTES_PER_SEGMENT = 0xffff - 2 - JPEG_ICC_PREFIX;
const JPEG_MAX_SEGMENTS = 255;

function isIccSegment(bytes: Uint8Array, segment: JpegSegment): boolean {
  return (
    segment.marker === APP2 &&
    segment.end - segment.body >= JPEG_ICC_PREFIX &&
    asciiAt(bytes, segment.body, JPEG_ICC_TAG.length) === JPEG_ICC_TAG
  );
}

/** The profile its APP2 segments hold, joined in sequence order; undefined when there is none or they disagree. */
export function readJpegProfile(bytes: Uint8Array): Uint8Array | undefined {
  const header = jpegHeader(bytes);
  if (!header) return undefined;
  const parts = new Map<number, Uint8Array>();
  let count = 0;
  for (const segment of header.segments) {
    if (!isIccSegment(bytes, segment)) continue;
    const at = segment.body + JPEG_ICC_TAG.length;
    const sequence = bytes[at]!;
    const total = bytes[at + 1]!;
    if (total === 0 || (count !== 0 && total !== count) || sequence < 1 || sequence > total || parts.has(sequence))
      return undefined;
    count = total;
    parts.set(sequence, bytes.subarray(at + 2, segment.end));
  }
  if (parts.size === 0 || parts.size !== count) return undefined;
  return concatBytes(Array.from({ length: count }, (_, index) => parts.get(index + 1) ?? new Uint8Array()));
}

/** `encoded` with `profile` in APP2 segments right after SOI (and APP0), replacing any it carried. */
export function embedJpegProfile(encoded: Uint8Array, profile: Uint8Array): Uint8Array {
  const header = jpegHeader(encoded);
  if (!header) throw new Error('embedIccProfile: the JPEG has no well-formed header before its first scan');
  const count = Math.ceil(profile.length / JPEG_PROFILE_BYTES_PER_SEGMENT);
  if (count > JPEG_MAX_SEGMENTS) {
    throw new MediaError(
      'E_TOO_LARGE',
      `The ICC profile is ${profile.length} bytes; a JPEG holds at most ${JPEG_MAX_SEGMENTS * JPEG_PROFILE_BYTES_PER_SEGMENT}. Convert the image to sRGB first.`,
    );
  }
  const iccSegments: Uint8Array[] = [];
  for (let index = 0; index < count; index++) {
    const part = profile.subarray(index * JPEG_PROFILE_BYTES_PER_SEGMENT, (index + 1) * JPEG_PROFILE_BYTES_PER_SEGMENT);
    const body = new Uint8Array(JPEG_ICC_PREFIX + part.length);
    body.set(ascii(JPEG_ICC_TAG));
    body.set([index + 1, count], JPEG_ICC_TAG.length);
    body.set(part, JPEG_ICC_PREFIX);
    iccSegments.push(jpegSegment(APP2, body));
  }
  // JFIF readers expect APP0 right after SOI, so the profile goes after it when there is one.
  const kept = header.segments
    .filter((segment) => !isIccSegment(encoded, segment))
    .map((segment) => encoded.subarray(segment.start, segment.end));
  const leading = header.segments[0]?.marker === APP0 ? 1 : 0;
  return concatBytes([
    encoded.subarray(0, 2),
    ...kept.slice(0, leading),
    ...iccSegments,
    ...kept.slice(leading),
    encoded.subarray(header.scanStart),
  ]);
}

/** The bytes `embedJpegProfile` adds for `profile`: each segment's marker, length and 14-byte prefix, and the profile. */
export function jpegIccProfileBytes(profile: Uint8Array): number {
  return profile.length + Math.ceil(profile.length / JPEG_PROFILE_BYTES_PER_SEGMENT) * (4 + JPEG_ICC_PREFIX);
}
