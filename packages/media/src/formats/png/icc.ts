// A PNG's ICC profile: an iCCP chunk (a profile name, a zero, compression method 0, a zlib stream) before
// PLTE and IDAT. Read like libpng (a chunk whose CRC fails is ignored), inflated within a bound; written as
// stored zlib blocks, so the bytes are the same in every runtime.
import { concatBytes } from '../bytes.js';
import { ascii, MAX_PROFILE_BYTES } from '../icc-profile.js';
import { crcMatches, pngChunk, pngChunkList } from './chunks.js';

const PNG_PROFILE_NAME = 'ICC profile';
/** Profile names are 1–79 Latin-1 bytes. */
const PNG_MAX_NAME = 79;

/** The profile its iCCP chunk holds, inflated; undefined when there is none, or it is damaged or a bomb. */
export async function readPngProfile(bytes: Uint8Array): Promise<Uint8Array | undefined> {
  const chunks = pngChunkList(bytes);
  const chunk = chunks?.find((candidate) => candidate.type === 'iCCP');
  // Like libpng, a chunk whose CRC does not match is ignored.
  if (!chunk || !crcMatches(bytes, chunk)) return undefined;
  const data = bytes.subarray(chunk.data, chunk.data + chunk.length);
  const nameEnd = data.subarray(0, PNG_MAX_NAME + 1).indexOf(0);
  if (nameEnd < 1 || data[nameEnd + 1] !== 0) return undefined;
  return inflateBounded(data.subarray(nameEnd + 2), MAX_PROFILE_BYTES);
}

/** `encoded` with `profile` in an iCCP chunk right after IHDR, replacing any iCCP or sRGB chunk it had. */
export function embedPngProfile(encoded: Uint8Array, profile: Uint8Array): Uint8Array {
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

/**
 * At most the bytes `embedPngProfile` adds for `profile`: the iCCP chunk (length, type, CRC), its name and
 * the two bytes after it, and the stored zlib stream (header, 5 bytes a block of up to 65,535, Adler-32).
 */
export function pngIccProfileBytes(profile: Uint8Array): number {
  const blocks = Math.max(1, Math.ceil(profile.length / 0xffff));
  return 12 + PNG_PROFILE_NAME.length + 2 + 2 + blocks * 5 + profile.length + 4;
}
