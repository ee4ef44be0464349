// A WebP's ICC profile: an ICCP chunk right after VP8X, whose flags announce it; a simple (VP8 or VP8L)
// file gains a VP8X header to carry one.
import { ByteReader } from '../byte-reader.js';
import { readBitstreamHeader, VP8X_ALPHA, VP8X_ICC } from './probe.js';
import { riffChunk, type RiffChunk, webpChunks, webpFile } from './riff.js';

/** The chunks inside a WebP's RIFF container, or undefined when it is malformed. */
function webpChunkList(bytes: Uint8Array): RiffChunk[] | undefined {
  try {
    return webpChunks(bytes).chunks;
  } catch {
    return undefined;
  }
}

/** The profile its ICCP chunk holds, when VP8X announces it. */
export function readWebpProfile(bytes: Uint8Array): Uint8Array | undefined {
  const chunks = webpChunkList(bytes);
  const vp8x = chunks?.[0];
  // Decoders read ICCP only when VP8X announces it; an unannounced one does not describe the pixels.
  if (!chunks || !vp8x || vp8x.type !== 'VP8X' || vp8x.length < 10 || !((bytes[vp8x.offset] ?? 0) & VP8X_ICC))
    return undefined;
  const chunk = chunks.find((candidate) => candidate.type === 'ICCP');
  return chunk && bytes.subarray(chunk.offset, chunk.offset + chunk.length);
}

/** `encoded` with `profile` in an ICCP chunk after VP8X (added to a simple file), replacing any it had. */
export function embedWebpProfile(encoded: Uint8Array, profile: Uint8Array): Uint8Array {
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

function u24le(value: number): Uint8Array {
  return Uint8Array.of(value & 0xff, (value >> 8) & 0xff, (value >> 16) & 0xff);
}

/** At most the bytes `embedWebpProfile` adds for `profile`: its ICCP chunk (padded to even), and a VP8X chunk. */
export function webpIccProfileBytes(profile: Uint8Array): number {
  return 8 + profile.length + (profile.length & 1) + 18;
}
