// PNG chunks: the one reader and writer that probe, ICC profiles and the PNG codec's callers use. After
// the 8-byte signature, each chunk is a 4-byte big-endian length, a 4-byte type, the data and a CRC-32
// of type and data; the chain ends with IEND.
import { ByteReader, corrupt, describeTag } from '../byte-reader.js';
import { crc32 } from './crc32.js';

const FORMAT = 'PNG';
export const PNG_SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);

export interface PngChunk {
  type: string;
  /** Offset of the length field. */
  start: number;
  /** Offset of the data. */
  data: number;
  length: number;
  /** Just past the CRC. */
  end: number;
}

/**
 * Every chunk from `from` (just after the signature by default) through IEND. A chunk that claims more
 * than 2^31 bytes or runs past the end of the bytes is `E_CORRUPT`, so a truncated chain never reads as
 * a complete one. CRCs are not checked here (see `crcMatches`).
 */
export function* pngChunks(bytes: Uint8Array, from = PNG_SIGNATURE.length): Generator<PngChunk> {
  const reader = new ByteReader(bytes, FORMAT);
  for (let offset = from; ; ) {
    const length = reader.u32be(offset, 'chunk length');
    const type = reader.ascii(offset + 4, 4, 'chunk type');
    if (length > 0x7fffffff)
      throw corrupt(FORMAT, `chunk ${describeTag(type)} at byte ${offset} claims ${length} bytes`);
    reader.need(offset + 8, length + 4, `${describeTag(type)} chunk`);
    const chunk = { type, start: offset, data: offset + 8, length, end: offset + 12 + length };
    yield chunk;
    if (type === 'IEND') return;
    offset = chunk.end;
  }
}

/** Whether the bytes start with the PNG signature. */
export function hasPngSignature(bytes: Uint8Array): boolean {
  return bytes.length >= PNG_SIGNATURE.length && PNG_SIGNATURE.every((byte, i) => bytes[i] === byte);
}

/** The chunk chain through IEND, or undefined when the signature is missing or the chain is malformed. */
export function pngChunkList(bytes: Uint8Array): PngChunk[] | undefined {
  if (!hasPngSignature(bytes)) return undefined;
  try {
    return Array.from(pngChunks(bytes));
  } catch {
    return undefined;
  }
}

/** Whether a chunk's stored CRC matches its type and data. */
export function crcMatches(bytes: Uint8Array, chunk: PngChunk): boolean {
  const stored =
    ((bytes[chunk.end - 4]! << 24) |
      (bytes[chunk.end - 3]! << 16) |
      (bytes[chunk.end - 2]! << 8) |
      bytes[chunk.end - 1]!) >>>
    0;
  return crc32(bytes.subarray(chunk.start + 4, chunk.data + chunk.length)) === stored;
}

/** A complete chunk: length, `type`, `data`, CRC. */
export function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const chunk = new Uint8Array(12 + data.length);
  const view = new DataView(chunk.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) chunk[4 + i] = type.charCodeAt(i);
  chunk.set(data, 8);
  view.setUint32(8 + data.length, crc32(chunk.subarray(4, 8 + data.length)));
  return chunk;
}
