import { copyRiffChunk, riffChunk, riffChunks, WEBP_FORMAT, webpChunks, webpFile } from './riff.js';
import { corrupt } from '../byte-reader.js';
import { VP8X_ALPHA, VP8X_ANIMATION } from './probe.js';

/** An animation's first frame as a standalone still WebP, plus where it sits on the animation's canvas. */
export interface AnimatedWebpFrame {
  /** A complete still WebP file holding frame 1's bitstream (and its ALPH chunk). */
  still: Uint8Array;
  canvasWidth: number;
  canvasHeight: number;
  /** Frame offset on the canvas. */
  x: number;
  y: number;
  width: number;
  height: number;
}

/** ANMF payload: X, Y, width-1, height-1, duration (24 bits each) and a flags byte, then the frame's chunks. */
const ANMF_HEADER = 16;

/**
 * For an animated WebP (VP8X with the animation flag), the first frame re-wrapped as a still WebP so a
 * still-image decoder can read it; `undefined` for a still WebP (decode it as it is).
 */
export function firstWebpFrame(bytes: Uint8Array): AnimatedWebpFrame | undefined {
  const { reader, chunks } = webpChunks(bytes);
  const header = chunks[0]!;
  if (header.type !== 'VP8X' || header.length < 10) return undefined;
  if ((reader.u8(header.offset, 'VP8X flags') & VP8X_ANIMATION) === 0) return undefined;
  const canvasWidth = reader.u24le(header.offset + 4, 'VP8X canvas width') + 1;
  const canvasHeight = reader.u24le(header.offset + 7, 'VP8X canvas height') + 1;

  const frame = chunks.find((chunk) => chunk.type === 'ANMF');
  if (!frame) throw corrupt(WEBP_FORMAT, 'it is flagged as animated but has no frames (ANMF)');
  if (frame.length < ANMF_HEADER) throw corrupt(WEBP_FORMAT, 'the first ANMF chunk is too short');
  const x = reader.u24le(frame.offset, 'ANMF x') * 2;
  const y = reader.u24le(frame.offset + 3, 'ANMF y') * 2;
  const width = reader.u24le(frame.offset + 6, 'ANMF width') + 1;
  const height = reader.u24le(frame.offset + 9, 'ANMF height') + 1;
  if (x + width > canvasWidth || y + height > canvasHeight) {
    throw corrupt(
      WEBP_FORMAT,
      `frame 1 (${width}x${height} at ${x},${y}) lies outside the ${canvasWidth}x${canvasHeight} canvas`,
    );
  }

  const inner = riffChunks(reader, frame.offset + ANMF_HEADER, frame.offset + frame.length);
  const bitstream = inner.find((chunk) => chunk.type === 'VP8 ' || chunk.type === 'VP8L');
  if (!bitstream) throw corrupt(WEBP_FORMAT, 'the first frame has no image data (VP8 or VP8L chunk)');
  const alpha = bitstream.type === 'VP8 ' ? inner.find((chunk) => chunk.type === 'ALPH') : undefined;

  // A lossy frame with alpha needs VP8X (declaring alpha) before its ALPH chunk; otherwise the bitstream alone.
  const parts = alpha
    ? [vp8xChunk(width, height), copyRiffChunk(bytes, alpha), copyRiffChunk(bytes, bitstream)]
    : [copyRiffChunk(bytes, bitstream)];
  return { still: webpFile(parts), canvasWidth, canvasHeight, x, y, width, height };
}

/** A VP8X chunk declaring only alpha, for a still of the given size. */
function vp8xChunk(width: number, height: number): Uint8Array {
  const payload = new Uint8Array(10);
  payload[0] = VP8X_ALPHA;
  writeU24(payload, 4, width - 1);
  writeU24(payload, 7, height - 1);
  return riffChunk('VP8X', payload);
}

function writeU24(target: Uint8Array, offset: number, value: number): void {
  target[offset] = value & 0xff;
  target[offset + 1] = (value >> 8) & 0xff;
  target[offset + 2] = (value >> 16) & 0xff;
}
