import type { GifInfo } from '../../types.js';
import { ByteReader, corrupt } from '../byte-reader.js';

const FORMAT = 'GIF';
// Block introducers and labels (GIF89a), shared with the passthrough check (integrity.ts).
export const EXTENSION = 0x21;
export const IMAGE_DESCRIPTOR = 0x2c;
export const TRAILER = 0x3b;
export const GRAPHIC_CONTROL = 0xf9;
/** The header and logical screen descriptor; the global colour table, if any, follows. */
export const LOGICAL_SCREEN_END = 13;

/** Bytes of the colour table a screen or image flags byte announces (none when its top bit is clear). */
export function colourTableBytes(flags: number): number {
  return flags & 0x80 ? 3 * (2 << (flags & 0x07)) : 0;
}

/** A colour table: `entries` RGB triplets starting at `offset`. */
export interface GifColourTable {
  offset: number;
  entries: number;
}

/** The logical screen descriptor and where the blocks after it start. */
export interface GifScreen {
  width: number;
  height: number;
  globalColours: GifColourTable | undefined;
  blocksOffset: number;
}

/** One image descriptor with what its graphic control extension said, and where its LZW data starts. */
export interface GifImage {
  left: number;
  top: number;
  width: number;
  height: number;
  interlaced: boolean;
  localColours: GifColourTable | undefined;
  /** The colour index drawn as transparent, from the graphic control extension before the image. */
  transparentIndex: number | undefined;
  minCodeSize: number;
  /** Offset of the first LZW data sub-block (its length byte). */
  dataOffset: number;
}

export function readGifScreen(reader: ByteReader): GifScreen {
  const width = reader.u16le(6, 'logical screen width');
  const height = reader.u16le(8, 'logical screen height');
  const flags = reader.u8(10, 'logical screen flags');
  const globalColours = colourTableAt(reader, LOGICAL_SCREEN_END, flags, 'global colour table');
  const blocksOffset = LOGICAL_SCREEN_END + (globalColours ? globalColours.entries * 3 : 0);
  return { width, height, globalColours, blocksOffset };
}

/**
 * Walks extensions from `offset` to the next image descriptor. Returns undefined at the trailer or at
 * the end of the bytes; throws `E_CORRUPT` for an unknown block or a header cut short.
 */
export function nextGifImage(reader: ByteReader, offset: number): GifImage | undefined {
  let at = offset;
  let transparentIndex: number | undefined;
  while (at < reader.length) {
    const block = reader.u8(at, 'block introducer');
    if (block === TRAILER) return undefined;
    if (block === EXTENSION) {
      const label = reader.u8(at + 1, 'extension label');
      if (label === GRAPHIC_CONTROL && reader.u8(at + 2, 'graphic control block size') >= 4) {
        const transparent = (reader.u8(at + 3, 'graphic control flags') & 0x01) === 1;
        transparentIndex = transparent ? reader.u8(at + 6, 'transparent colour index') : undefined;
      }
      at = skipGifSubBlocks(reader, at + 2);
    } else if (block === IMAGE_DESCRIPTOR) {
      const flags = reader.u8(at + 9, 'image flags');
      const localColours = colourTableAt(reader, at + 10, flags, 'local colour table');
      const codeSizeAt = at + 10 + (localColours ? localColours.entries * 3 : 0);
      return {
        left: reader.u16le(at + 1, 'image left'),
        top: reader.u16le(at + 3, 'image top'),
        width: reader.u16le(at + 5, 'image width'),
        height: reader.u16le(at + 7, 'image height'),
        interlaced: (flags & 0x40) !== 0,
        localColours,
        transparentIndex,
        minCodeSize: reader.u8(codeSizeAt, 'LZW minimum code size'),
        dataOffset: codeSizeAt + 1,
      };
    } else {
      throw corrupt(FORMAT, `unknown block 0x${block.toString(16)} at byte ${at}`);
    }
  }
  return undefined;
}

/**
 * The canvas a still of the first frame needs: the logical screen, grown to hold the first image where
 * it reaches past the screen (a 10×10 screen may carry a 60000×60000 image; a 0×0 screen is common).
 * A screen side over 2048 is taken as bogus, as libnsgif (sharp) does, and the first image's extent is
 * the canvas: a 32552×24 screen with a 40×24 image at row 2048 made a 67-megapixel, almost empty canvas
 * that took 8-27 s to resize; it is now 40×2072, what sharp decodes.
 */
export function gifCanvasSize(screen: GifScreen, first: GifImage): { width: number; height: number } {
  const bogus = screen.width > MAX_TRUSTED_SCREEN_SIDE || screen.height > MAX_TRUSTED_SCREEN_SIDE;
  return {
    width: Math.max(bogus ? 0 : screen.width, first.left + first.width),
    height: Math.max(bogus ? 0 : screen.height, first.top + first.height),
  };
}

const MAX_TRUSTED_SCREEN_SIDE = 2048;

/**
 * GIF header facts: the logical screen, then a walk over the blocks that counts image descriptors,
 * skipping LZW data by its sub-block lengths (never decoding it). The size covers the first image too,
 * so the bomb guard sees what decoding would allocate. `hasAlpha` describes the first frame (the one
 * a still keeps): its GCE transparency flag, or canvas it leaves uncovered. Later frames' transparency
 * is usually delta encoding, not a transparent picture.
 * A file cut inside the first image is corrupt; one cut later keeps the frames that are complete.
 */
export function probeGif(bytes: Uint8Array): GifInfo {
  const reader = new ByteReader(bytes, FORMAT);
  const screen = readGifScreen(reader);
  let width = screen.width;
  let height = screen.height;
  let frames = 0;
  let hasAlpha = false;
  try {
    let offset = screen.blocksOffset;
    for (;;) {
      const image = nextGifImage(reader, offset);
      if (!image) break;
      offset = skipGifSubBlocks(reader, image.dataOffset);
      if (frames === 0) {
        ({ width, height } = gifCanvasSize(screen, image));
        // What the first frame shows: its transparent index, or canvas it leaves uncovered (browsers show it clear).
        hasAlpha =
          image.transparentIndex !== undefined ||
          image.left > 0 ||
          image.top > 0 ||
          image.width < width ||
          image.height < height;
      }
      frames++;
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
export function skipGifSubBlocks(reader: ByteReader, from: number): number {
  let offset = from;
  for (;;) {
    const size = reader.u8(offset, 'data sub-block');
    offset += 1;
    if (size === 0) return offset;
    reader.need(offset, size, 'data sub-block');
    offset += size;
  }
}

/** The colour table a flags byte announces at `offset`, bounds-checked; undefined when the flag is clear. */
function colourTableAt(reader: ByteReader, offset: number, flags: number, what: string): GifColourTable | undefined {
  const bytes = colourTableBytes(flags);
  if (bytes === 0) return undefined;
  reader.need(offset, bytes, what);
  return { offset, entries: bytes / 3 };
}
