// ICC colour profiles: read from a source file, written into its re-encoded copy. glimpse converts no
// colours, so decoded pixels stay in the source's space (Display P3 for iPhone photos); without the
// profile a viewer takes them for sRGB and the colours wash out.
import type { OutputType } from './encode.js';
import { isMediaError, MediaError } from '../errors.js';
import { APP0, APP2, jpegHeader, jpegSegment, type JpegSegment } from '../formats/jpeg/segments.js';
import { crcMatches, pngChunk, pngChunkList } from '../formats/png/chunks.js';
import { riffChunk, type RiffChunk, webpChunks, webpFile } from '../formats/webp/riff.js';
import { readHeifLayout } from '../formats/heif/layout.js';
import { asciiAt, ByteReader } from '../formats/byte-reader.js';
import { tiffIccProfile } from '../formats/tiff/probe.js';
import { readBitstreamHeader, VP8X_ALPHA, VP8X_ICC } from '../formats/webp/probe.js';
import type { MediaType } from '../types.js';
import { concatBytes } from '../formats/bytes.js';

/**
 * Larger profiles are ignored. Display profiles are 0.5–4 KB and the biggest printer profiles about
 * 2 MB; the bound also caps what a PNG's compressed iCCP may inflate to.
 */
const MAX_PROFILE_BYTES = 4 * 1024 * 1024;
const PROFILE_HEADER_BYTES = 128;

/**
 * The ICC profile embedded in `bytes`, or undefined when there is none or it is malformed (this never
 * throws). JPEG: the APP2 `ICC_PROFILE` segments joined in sequence order; PNG: the inflated iCCP
 * chunk; WebP: the ICCP chunk of an extended (VP8X) file; TIFF: tag 34675 of the first page; HEIC, HEIF
 * and AVIF: the primary image's `colr` box of type `prof` or `rICC` (an iPhone's Display P3). Other formats
 * give undefined.
 */
export async function readIccProfile(bytes: Uint8Array, type: MediaType): Promise<Uint8Array | undefined> {
  let profile: Uint8Array | undefined;
  try {
    profile = await embeddedProfile(bytes, type);
  } catch (cause) {
    if (isMediaError(cause)) return undefined; // a container that does not read carries no profile to keep
    throw cause;
  }
  return profile && wellFormedProfile(profile);
}

const HEIF_FORMATS = { 'image/heic': 'HEIC', 'image/heif': 'HEIF', 'image/avif': 'AVIF' } as const;

async function embeddedProfile(bytes: Uint8Array, type: MediaType): Promise<Uint8Array | undefined> {
  switch (type) {
    case 'image/jpeg':
      return readJpegProfile(bytes);
    case 'image/png':
      return readPngProfile(bytes);
    case 'image/webp':
      return readWebpProfile(bytes);
    case 'image/tiff':
      return tiffIccProfile(bytes);
    case 'image/heic':
    case 'image/heif':
    case 'image/avif':
      return readHeifLayout(bytes, HEIF_FORMATS[type]).iccProfile;
    case 'image/gif':
    case 'image/bmp':
    case 'image/svg+xml':
    case 'application/pdf':
    case 'image/jxl':
    case 'image/x-icon':
      return undefined;
    default: {
      const unreachable: never = type;
      return unreachable;
    }
  }
}

/**
 * `encoded` with `profile` embedded; a profile it already carries is replaced (and a PNG's sRGB chunk
 * dropped, which must not stand beside iCCP). `encoded` must be well formed: it comes from an encoder.
 */
export async function embedIccProfile(encoded: Uint8Array, type: OutputType, profile: Uint8Array): Promise<Uint8Array> {
  switch (type) {
    case 'image/jpeg':
      return embedJpegProfile(encoded, profile);
    case 'image/png':
      return embedPngProfile(encoded, profile);
    case 'image/webp':
      return embedWebpProfile(encoded, profile);
    default: {
      const unreachable: never = type;
      throw new Error(`no ICC embedding for ${String(unreachable)}`);
    }
  }
}

/**
 * Carries the source's profile into a re-encoded result, when there is one that describes the RGB
 * pixels the encoders write (a CMYK or gray profile would mislabel them) and the result still fits
 * `maxBytes` with it; otherwise returns `encoded` unchanged.
 */
export async function carryIccProfile<T extends { data: Uint8Array; mediaType: OutputType }>(
  encoded: T,
  source: Uint8Array,
  sourceType: MediaType,
  maxBytes: number,
): Promise<T> {
  const profile = await readIccProfile(source, sourceType);
  if (!profile || !describesRgb(profile)) return encoded;
  const data = await embedIccProfile(encoded.data, encoded.mediaType, profile);
  return data.byteLength <= maxBytes ? { ...encoded, data } : encoded;
}

/** The profile cut to its declared size, or undefined unless it has an ICC header ('acsp' signature). */
function wellFormedProfile(profile: Uint8Array): Uint8Array | undefined {
  if (profile.length < PROFILE_HEADER_BYTES || profile.length > MAX_PROFILE_BYTES) return undefined;
  if (asciiAt(profile, 36, 4) !== 'acsp') return undefined;
  const declared = u32be(profile, 0);
  if (declared < PROFILE_HEADER_BYTES || declared > profile.length) return undefined;
  return profile.subarray(0, declared);
}

/** Device classes that may be embedded in an image (not device links, abstract or named-colour profiles). */
const IMAGE_PROFILE_CLASSES = new Set(['mntr', 'scnr', 'prtr', 'spac']);

/** Whether the profile's data colour space is RGB, which is what decoded and re-encoded pixels are. */
export function describesRgb(profile: Uint8Array): boolean {
  return IMAGE_PROFILE_CLASSES.has(asciiAt(profile, 12, 4)) && asciiAt(profile, 16, 4) === 'RGB ';
}

// ---- JPEG: APP2 segments "ICC_PROFILE\0", sequence number (1-based), segment count, profile bytes.

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

function readJpegProfile(bytes: Uint8Array): Uint8Array | undefined {
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

function embedJpegProfile(encoded: Uint8Array, profile: Uint8Array): Uint8Array {
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

// ---- PNG: an iCCP chunk (profile name, 0, compression method 0, zlib stream) before PLTE and IDAT.

const PNG_PROFILE_NAME = 'ICC profile';
/** Profile names are 1–79 Latin-1 bytes. */
const PNG_MAX_NAME = 79;

async function readPngProfile(bytes: Uint8Array): Promise<Uint8Array | undefined> {
  const chunks = pngChunkList(bytes);
  const chunk = chunks?.find((candidate) => candidate.type === 'iCCP');
  // Like libpng, a chunk whose CRC does not match is ignored.
  if (!chunk || !crcMatches(bytes, chunk)) return undefined;
  const data = bytes.subarray(chunk.data, chunk.data + chunk.length);
  const nameEnd = data.subarray(0, PNG_MAX_NAME + 1).indexOf(0);
  if (nameEnd < 1 || data[nameEnd + 1] !== 0) return undefined;
  return inflateBounded(data.subarray(nameEnd + 2), MAX_PROFILE_BYTES);
}

function embedPngProfile(encoded: Uint8Array, profile: Uint8Array): Uint8Array {
  const chunks = pngChunkList(encoded);
  const first = chunks?.[0];
  if (!chunks || first?.type !== 'IHDR')
    throw new Error('embedIccProfile: the PNG has no well-formed chunk chain starting with IHDR');
  const name = ascii(PNG_PROFILE_NAME);
  const compressed = zlibStored(profile);
  const data = new Uint8Array(name.length + 2 + compressed.length);
  data.set(name);
  data.set(compressed, name.length + 2); // the name's terminator and compression method 0 are the zeros between
  const kept = chunks
    .slice(1)
    .filter((chunk) => chunk.type !== 'iCCP' && chunk.type !== 'sRGB')
    .map((chunk) => encoded.subarray(chunk.start, chunk.end));
  return concatBytes([encoded.subarray(0, first.end), pngChunk('iCCP', data), ...kept]);
}

// ---- WebP: an ICCP chunk right after VP8X, whose flags announce it.

/** The chunks inside a WebP's RIFF container, or undefined when it is malformed. */
function webpChunkList(bytes: Uint8Array): RiffChunk[] | undefined {
  try {
    return webpChunks(bytes).chunks;
  } catch {
    return undefined;
  }
}

function readWebpProfile(bytes: Uint8Array): Uint8Array | undefined {
  const chunks = webpChunkList(bytes);
  const vp8x = chunks?.[0];
  // Decoders read ICCP only when VP8X announces it; an unannounced one does not describe the pixels.
  if (!chunks || !vp8x || vp8x.type !== 'VP8X' || vp8x.length < 10 || !((bytes[vp8x.offset] ?? 0) & VP8X_ICC))
    return undefined;
  const chunk = chunks.find((candidate) => candidate.type === 'ICCP');
  return chunk && bytes.subarray(chunk.offset, chunk.offset + chunk.length);
}

function embedWebpProfile(encoded: Uint8Array, profile: Uint8Array): Uint8Array {
  const chunks = webpChunkList(encoded);
  const first = chunks?.[0];
  if (!chunks || !first) throw new Error('embedIccProfile: the WebP has no well-formed RIFF container');
  const vp8x = first.type === 'VP8X' ? encoded.slice(first.start, first.end) : simpleToExtendedHeader(encoded, first);
  vp8x[8] = (vp8x[8] ?? 0) | VP8X_ICC;
  const rest = chunks
    .slice(first.type === 'VP8X' ? 1 : 0)
    .filter((chunk) => chunk.type !== 'ICCP')
    .map((chunk) => encoded.subarray(chunk.start, chunk.end));
  return webpFile([vp8x, riffChunk('ICCP', profile), ...rest]);
}

/** A VP8X chunk (flags, 3 reserved bytes, canvas size minus one in 24 bits each) for a simple VP8/VP8L file. */
function simpleToExtendedHeader(encoded: Uint8Array, bitstream: RiffChunk): Uint8Array {
  if (bitstream.type !== 'VP8 ' && bitstream.type !== 'VP8L')
    throw new Error(`embedIccProfile: a simple WebP starts with VP8 or VP8L, not ${JSON.stringify(bitstream.type)}`);
  const { width, height, alpha } = readBitstreamHeader(new ByteReader(encoded, 'WebP'), bitstream);
  const payload = new Uint8Array(10);
  payload[0] = alpha ? VP8X_ALPHA : 0;
  payload.set(u24le(width - 1), 4);
  payload.set(u24le(height - 1), 7);
  return riffChunk('VP8X', payload);
}

// ---- Shared byte helpers.

function u32be(bytes: Uint8Array, offset: number): number {
  return ((bytes[offset]! << 24) | (bytes[offset + 1]! << 16) | (bytes[offset + 2]! << 8) | bytes[offset + 3]!) >>> 0;
}

function u24le(value: number): Uint8Array {
  return Uint8Array.of(value & 0xff, (value >> 8) & 0xff, (value >> 16) & 0xff);
}

function ascii(text: string): Uint8Array {
  return Uint8Array.from(text, (character) => character.charCodeAt(0));
}

/**
 * The bytes as a zlib stream of stored (uncompressed) deflate blocks, as PNG's iCCP wants. Not
 * CompressionStream: its output differs between runtimes (Deno's is not Node's), and outputs must be
 * the same bytes everywhere; a display profile would shrink by only a few hundred bytes anyway.
 */
function zlibStored(bytes: Uint8Array): Uint8Array {
  const blockSize = 0xffff;
  const blocks = Math.max(1, Math.ceil(bytes.length / blockSize));
  const output = new Uint8Array(2 + blocks * 5 + bytes.length + 4);
  const view = new DataView(output.buffer);
  output.set([0x78, 0x01]); // deflate, 32 KB window, no dictionary, fastest level; a multiple of 31 as zlib requires
  let offset = 2;
  for (let block = 0; block < blocks; block++) {
    const part = bytes.subarray(block * blockSize, (block + 1) * blockSize);
    output[offset] = block === blocks - 1 ? 1 : 0; // BFINAL, BTYPE 00 (stored)
    view.setUint16(offset + 1, part.length, true);
    view.setUint16(offset + 3, ~part.length & 0xffff, true);
    output.set(part, offset + 5);
    offset += 5 + part.length;
  }
  view.setUint32(offset, adler32(bytes));
  return output;
}

function adler32(bytes: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (const byte of bytes) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}

/** Inflates a zlib stream, or undefined when it is damaged or would exceed `limit` bytes (a bomb). DecompressionStream exists in Node 18+, Deno, browsers and workerd. */
async function inflateBounded(bytes: Uint8Array, limit: number): Promise<Uint8Array | undefined> {
  const stream = new DecompressionStream('deflate');
  const writer = stream.writable.getWriter();
  // Failures surface on the reading side; these promises only need a handler.
  writer.write(new Uint8Array(bytes)).catch(() => {}); // a copy: the stream takes only ArrayBuffer-backed views
  writer.close().catch(() => {});
  const reader = stream.readable.getReader();
  const parts: Uint8Array[] = [];
  let total = 0;
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      total += read.value.length;
      if (total > limit) {
        await reader.cancel();
        return undefined;
      }
      parts.push(read.value);
    }
  } catch {
    return undefined;
  }
  return concatBytes(parts);
}
