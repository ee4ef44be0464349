import type { ProbeResult } from '../types.js';
import { ByteReader, corrupt } from './byte-reader.js';

const FORMAT = 'GIF';
const EXTENSION = 0x21;
const IMAGE_DESCRIPTOR = 0x2c;
const TRAILER = 0x3b;
const GRAPHIC_CONTROL = 0xf9;

/**
 * GIF header facts: the logical screen, then a walk over the blocks that counts image descriptors,
 * skipping LZW data by its sub-block lengths (never decoding it). `hasAlpha` describes the first frame
 * (the one a still keeps): its GCE transparency flag, or screen area it leaves uncovered. Later frames'
 * transparency is usually delta encoding, not a transparent picture.
 * A file cut inside the first image is corrupt; one cut later keeps the frames that are complete.
 */
export function probeGif(bytes: Uint8Array): ProbeResult {
  const reader = new ByteReader(bytes, FORMAT);
  let width = reader.u16le(6, 'logical screen width');
  let height = reader.u16le(8, 'logical screen height');
  const screenFlags = reader.u8(10, 'logical screen flags');
  let offset = 13;
  if (screenFlags & 0x80) offset += 3 << ((screenFlags & 0x07) + 1);

  let frames = 0;
  let hasAlpha = false;
  let nextFrameTransparent = false;
  try {
    while (offset < bytes.length) {
      const block = bytes[offset];
      if (block === TRAILER) break;
      if (block === EXTENSION) {
        const label = reader.u8(offset + 1, 'extension label');
        if (label === GRAPHIC_CONTROL && reader.u8(offset + 2, 'graphic control block size') >= 4) {
          nextFrameTransparent = (reader.u8(offset + 3, 'graphic control flags') & 0x01) === 1;
        }
        offset = skipSubBlocks(reader, offset + 2);
      } else if (block === IMAGE_DESCRIPTOR) {
        const frameLeft = reader.u16le(offset + 1, 'image left');
        const frameTop = reader.u16le(offset + 3, 'image top');
        const frameWidth = reader.u16le(offset + 5, 'image width');
        const frameHeight = reader.u16le(offset + 7, 'image height');
        const imageFlags = reader.u8(offset + 9, 'image flags');
        offset += 10;
        if (imageFlags & 0x80) offset += 3 << ((imageFlags & 0x07) + 1);
        reader.u8(offset, 'LZW minimum code size');
        offset = skipSubBlocks(reader, offset + 1);
        if (frames === 0) {
          if (width === 0 || height === 0) {
            width = frameWidth;
            height = frameHeight;
          }
          // What the first frame shows: its transparent index, or screen it leaves uncovered (browsers show it clear).
          hasAlpha = nextFrameTransparent || frameLeft > 0 || frameTop > 0 || frameLeft + frameWidth < width || frameTop + frameHeight < height;
        }
        nextFrameTransparent = false;
        frames++;
      } else {
        throw corrupt(FORMAT, `unknown block 0x${block.toString(16)} at byte ${offset}`);
      }
    }
  } catch (error) {
    // Browsers show the complete frames of a cut animation; without one complete frame there is nothing to show.
    if (frames === 0) throw error;
  }
  if (frames === 0) throw corrupt(FORMAT, 'it contains no image');
  if (width === 0 || height === 0) throw corrupt(FORMAT, `its size is ${width}x${height}`);

  return { mediaType: 'image/gif', bytes: bytes.length, width, height, orientation: 1, frames, hasAlpha, bitDepth: 8 };
}

/** Skips a chain of length-prefixed sub-blocks ending with a zero length; returns the offset after the terminator. */
function skipSubBlocks(reader: ByteReader, from: number): number {
  let offset = from;
  for (;;) {
    const size = reader.u8(offset, 'data sub-block');
    offset += 1;
    if (size === 0) return offset;
    reader.need(offset, size, 'data sub-block');
    offset += size;
  }
}
