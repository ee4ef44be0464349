import { ByteReader, corrupt, describeTag, truncated } from './byte-reader.js';

export const WEBP_FORMAT = 'WebP';

/** One RIFF chunk: its FourCC, where its payload starts and how long the payload is (pad byte excluded). */
export interface RiffChunk {
  type: string;
  offset: number;
  length: number;
}

/** The VP8X flags we act on. */
export const VP8X_ANIMATION = 0x02;
export const VP8X_ALPHA = 0x10;

/** Lists the chunks in `[start, end)`. Every chunk must fit; a missing final pad byte is tolerated. */
export function listRiffChunks(reader: ByteReader, start: number, end: number): RiffChunk[] {
  const chunks: RiffChunk[] = [];
  let offset = start;
  while (offset + 8 <= end) {
    const type = reader.ascii(offset, 4, 'chunk header');
    const length = reader.u32le(offset + 4, 'chunk header');
    if (offset + 8 + length > end) throw truncated(WEBP_FORMAT, `${describeTag(type)} chunk`, offset + 8 + length, end);
    chunks.push({ type, offset: offset + 8, length });
    offset += 8 + length + (length & 1);
  }
  return chunks;
}

/** The top-level chunks of a WebP file, after checking the RIFF header. */
export function listWebpChunks(bytes: Uint8Array): { reader: ByteReader; chunks: RiffChunk[] } {
  const reader = new ByteReader(bytes, WEBP_FORMAT);
  const riffSize = reader.u32le(4, 'RIFF header');
  reader.need(12, 0, 'RIFF header');
  const end = 8 + riffSize;
  if (end > bytes.length) throw truncated(WEBP_FORMAT, 'RIFF container', end, bytes.length);
  const chunks = listRiffChunks(reader, 12, end);
  if (chunks.length === 0) throw corrupt(WEBP_FORMAT, 'the RIFF container holds no chunks');
  return { reader, chunks };
}

/** Size and alpha bit of a lossy (VP8) or lossless (VP8L) bitstream, read from its first bytes. */
export function readBitstreamHeader(reader: ByteReader, chunk: RiffChunk): { width: number; height: number; alpha: boolean } {
  if (chunk.type === 'VP8 ') {
    if (chunk.length < 10) throw corrupt(WEBP_FORMAT, 'the VP8 chunk is too short for a frame header');
    const tag = reader.u8(chunk.offset, 'VP8 frame tag');
    if (tag & 0x01) throw corrupt(WEBP_FORMAT, 'the VP8 bitstream does not start with a key frame');
    if (reader.u8(chunk.offset + 3, 'VP8 start code') !== 0x9d || reader.u8(chunk.offset + 4, 'VP8 start code') !== 0x01 || reader.u8(chunk.offset + 5, 'VP8 start code') !== 0x2a) {
      throw corrupt(WEBP_FORMAT, 'the VP8 start code is missing');
    }
    const width = reader.u16le(chunk.offset + 6, 'VP8 width') & 0x3fff;
    const height = reader.u16le(chunk.offset + 8, 'VP8 height') & 0x3fff;
    if (width === 0 || height === 0) throw corrupt(WEBP_FORMAT, `the VP8 frame size is ${width}x${height}`);
    return { width, height, alpha: false };
  }
  if (chunk.length < 5) throw corrupt(WEBP_FORMAT, 'the VP8L chunk is too short for a header');
  if (reader.u8(chunk.offset, 'VP8L signature') !== 0x2f) throw corrupt(WEBP_FORMAT, 'the VP8L signature byte is missing');
  const bits = reader.u32le(chunk.offset + 1, 'VP8L header');
  if (bits >>> 29 !== 0) throw corrupt(WEBP_FORMAT, `unknown VP8L version ${bits >>> 29}`);
  return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1, alpha: ((bits >>> 28) & 1) === 1 };
}
