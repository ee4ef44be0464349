import type { Orientation, WebpInfo } from '../../types.js';
import { readExifOrientation } from '../exif.js';
import { type RiffChunk, WEBP_FORMAT, webpChunks } from './riff.js';
import { corrupt, describeTag } from '../byte-reader.js';
import type { ByteReader } from '../byte-reader.js';

/** The VP8X flags glimpse acts on. */
export const VP8X_ANIMATION = 0x02;
export const VP8X_ALPHA = 0x10;
export const VP8X_ICC = 0x20;

/**
 * WebP header facts from the RIFF chunk list (riff.ts): VP8X canvas and flags, ANMF frame
 * count, ALPH/VP8L alpha, EXIF orientation; simple files from their VP8/VP8L bitstream header. Every
 * chunk must be complete.
 */
export function probeWebp(bytes: Uint8Array): WebpInfo {
  const { reader, chunks } = webpChunks(bytes);
  const first = chunks[0]!;
  let orientation: Orientation = 1;
  const exif = chunks.find((chunk) => chunk.type === 'EXIF');
  if (exif) orientation = readExifOrientation(bytes.subarray(exif.offset, exif.offset + exif.length));

  if (first.type === 'VP8X') {
    if (first.length < 10) throw corrupt(WEBP_FORMAT, 'the VP8X chunk is too short');
    const flags = reader.u8(first.offset, 'VP8X flags');
    const width = reader.u24le(first.offset + 4, 'VP8X canvas width') + 1;
    const height = reader.u24le(first.offset + 7, 'VP8X canvas height') + 1;
    const animated = (flags & VP8X_ANIMATION) !== 0;
    const frames = animated ? chunks.filter((chunk) => chunk.type === 'ANMF').length : 1;
    if (animated && frames === 0) throw corrupt(WEBP_FORMAT, 'it is flagged as animated but has no frames (ANMF)');
    const bitstream = chunks.find((chunk) => chunk.type === 'VP8 ' || chunk.type === 'VP8L');
    if (!animated && !bitstream) throw corrupt(WEBP_FORMAT, 'it has no image data (VP8 or VP8L chunk)');
    const bitstreamAlpha = bitstream ? readBitstreamHeader(reader, bitstream).alpha : false;
    const hasAlpha =
      (flags & VP8X_ALPHA) !== 0 ||
      bitstreamAlpha ||
      chunks.some((chunk) => chunk.type === 'ALPH') ||
      (animated && !firstFrameCoversCanvas(reader, chunks, width, height));
    // Lossless (VP8L) stills stay lossless when re-encoded; an animation's first frame is not inspected.
    const lossless = bitstream?.type === 'VP8L';
    return {
      mediaType: 'image/webp',
      bytes: bytes.length,
      width,
      height,
      orientation,
      frames,
      hasAlpha,
      bitDepth: 8,
      lossless,
    };
  }
  if (first.type !== 'VP8 ' && first.type !== 'VP8L') {
    throw corrupt(WEBP_FORMAT, `the first chunk is ${describeTag(first.type)}, expected VP8, VP8L or VP8X`);
  }
  const header = readBitstreamHeader(reader, first);
  return {
    mediaType: 'image/webp',
    bytes: bytes.length,
    width: header.width,
    height: header.height,
    orientation,
    frames: 1,
    hasAlpha: header.alpha,
    bitDepth: 8,
    lossless: first.type === 'VP8L',
  };
}

/** Size and alpha bit of a lossy (VP8) or lossless (VP8L) bitstream, read from its first bytes. */
export function readBitstreamHeader(
  reader: ByteReader,
  chunk: RiffChunk,
): { width: number; height: number; alpha: boolean } {
  if (chunk.type === 'VP8 ') {
    if (chunk.length < 10) throw corrupt(WEBP_FORMAT, 'the VP8 chunk is too short for a frame header');
    const tag = reader.u8(chunk.offset, 'VP8 frame tag');
    if (tag & 0x01) throw corrupt(WEBP_FORMAT, 'the VP8 bitstream does not start with a key frame');
    if (
      reader.u8(chunk.offset + 3, 'VP8 start code') !== 0x9d ||
      reader.u8(chunk.offset + 4, 'VP8 start code') !== 0x01 ||
      reader.u8(chunk.offset + 5, 'VP8 start code') !== 0x2a
    ) {
      throw corrupt(WEBP_FORMAT, 'the VP8 start code is missing');
    }
    const width = reader.u16le(chunk.offset + 6, 'VP8 width') & 0x3fff;
    const height = reader.u16le(chunk.offset + 8, 'VP8 height') & 0x3fff;
    if (width === 0 || height === 0) throw corrupt(WEBP_FORMAT, `the VP8 frame size is ${width}x${height}`);
    return { width, height, alpha: false };
  }
  if (chunk.length < 5) throw corrupt(WEBP_FORMAT, 'the VP8L chunk is too short for a header');
  if (reader.u8(chunk.offset, 'VP8L signature') !== 0x2f)
    throw corrupt(WEBP_FORMAT, 'the VP8L signature byte is missing');
  const bits = reader.u32le(chunk.offset + 1, 'VP8L header');
  if (bits >>> 29 !== 0) throw corrupt(WEBP_FORMAT, `unknown VP8L version ${bits >>> 29}`);
  return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1, alpha: ((bits >>> 28) & 1) === 1 };
}

/** Encoders crop frame 1 to its opaque area; the canvas around it is then transparent even without an alpha flag. */
function firstFrameCoversCanvas(
  reader: ByteReader,
  chunks: RiffChunk[],
  canvasWidth: number,
  canvasHeight: number,
): boolean {
  const frame = chunks.find((chunk) => chunk.type === 'ANMF');
  if (!frame || frame.length < 12) return false;
  const x = reader.u24le(frame.offset, 'ANMF x');
  const y = reader.u24le(frame.offset + 3, 'ANMF y');
  const width = reader.u24le(frame.offset + 6, 'ANMF width') + 1;
  const height = reader.u24le(frame.offset + 9, 'ANMF height') + 1;
  return x === 0 && y === 0 && width >= canvasWidth && height >= canvasHeight;
}
