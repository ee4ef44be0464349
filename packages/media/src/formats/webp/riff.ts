// RIFF chunks, WebP's container: the one reader and writer that probe, ICC profiles and animation
// frames use. A file is "RIFF", a 4-byte little-endian size, a form type ("WEBP"), then chunks: a FourCC,
// a 4-byte little-endian payload length, the payload, and a pad byte when the length is odd.
import { ByteReader, corrupt, describeTag, truncated } from '../byte-reader.js';

export const WEBP_FORMAT = 'WebP';

/** One chunk. */
export interface RiffChunk {
  type: string;
  /** Offset of the FourCC. */
  start: number;
  /** Offset of the payload. */
  offset: number;
  /** Payload length, pad byte excluded. */
  length: number;
  /** Just past the pad byte (or the payload, when a file's last chunk lacks its pad byte). */
  end: number;
}

/** The chunks in `[start, end)`. Every chunk must fit; a missing final pad byte is tolerated. */
export function riffChunks(reader: ByteReader, start: number, end: number): RiffChunk[] {
  const chunks: RiffChunk[] = [];
  let offset = start;
  while (offset + 8 <= end) {
    const type = reader.ascii(offset, 4, 'chunk header');
    const length = reader.u32le(offset + 4, 'chunk header');
    if (offset + 8 + length > end) throw truncated(WEBP_FORMAT, `${describeTag(type)} chunk`, offset + 8 + length, end);
    const next = offset + 8 + length + (length & 1);
    chunks.push({ type, start: offset, offset: offset + 8, length, end: Math.min(next, end) });
    offset = next;
  }
  return chunks;
}

/** The top-level chunks of a WebP file, after checking its RIFF header (`E_CORRUPT` when malformed or cut short). */
export function webpChunks(bytes: Uint8Array): { reader: ByteReader; chunks: RiffChunk[] } {
  const reader = new ByteReader(bytes, WEBP_FORMAT);
  if (reader.ascii(0, 4, 'RIFF header') !== 'RIFF' || reader.ascii(8, 4, 'RIFF header') !== 'WEBP')
    throw corrupt(WEBP_FORMAT, 'it does not start with a RIFF WEBP header');
  const end = 8 + reader.u32le(4, 'RIFF header');
  if (end > bytes.length) throw truncated(WEBP_FORMAT, 'RIFF container', end, bytes.length);
  const chunks = riffChunks(reader, 12, end);
  if (chunks.length === 0) throw corrupt(WEBP_FORMAT, 'the RIFF container holds no chunks');
  return { reader, chunks };
}

/** A chunk: FourCC, length, `payload`, and the pad byte an odd length needs. */
export function riffChunk(type: string, payload: Uint8Array): Uint8Array {
  const chunk = new Uint8Array(8 + payload.length + (payload.length & 1));
  for (let i = 0; i < 4; i++) chunk[i] = type.charCodeAt(i);
  new DataView(chunk.buffer).setUint32(4, payload.length, true);
  chunk.set(payload, 8);
  return chunk;
}

/** A chunk copied from `bytes` whole, with its pad byte even when the source's last chunk lacked it. */
export function copyRiffChunk(bytes: Uint8Array, chunk: RiffChunk): Uint8Array {
  return riffChunk(chunk.type, bytes.subarray(chunk.offset, chunk.offset + chunk.length));
}

/** A WebP file holding `chunks` (complete chunks, in order). */
export function webpFile(chunks: readonly Uint8Array[]): Uint8Array {
  const body = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  const file = new Uint8Array(12 + body);
  file.set([0x52, 0x49, 0x46, 0x46]); // RIFF
  new DataView(file.buffer).setUint32(4, 4 + body, true);
  file.set([0x57, 0x45, 0x42, 0x50], 8); // WEBP
  let offset = 12;
  for (const chunk of chunks) {
    file.set(chunk, offset);
    offset += chunk.length;
  }
  return file;
}
