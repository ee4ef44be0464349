// GIF first-frame decoder: providers want stills, so only the first image is ever decoded.
import { ByteReader, corrupt as malformed } from '../probe/byte-reader.js';
import { gifCanvasSize, nextGifImage, readGifScreen, type GifColourTable, type GifImage } from '../probe/gif.js';
import type { Raster } from '../types.js';
import { decodeGifLzw } from './gif-lzw.js';
import { corrupt } from './codec-support.js';

/** Interlaced rows arrive in four passes: every 8th row from 0, every 8th from 4, every 4th from 2, every 2nd from 1. */
const INTERLACE_PASSES = [
  { start: 0, step: 8 },
  { start: 4, step: 8 },
  { start: 2, step: 4 },
  { start: 1, step: 2 },
] as const;

/**
 * The first frame composited onto the logical screen (grown to hold the frame if it reaches past it,
 * the size `probe` reports), transparent where the frame does not cover it or its data runs out.
 * Frame 0 needs no disposal handling: nothing precedes it.
 * Memory: one index byte per frame pixel plus the RGBA canvas. The caller bounds the size first
 * (`process` refuses what `probe` reports beyond maxInputPixels).
 */
export function decodeGifFirstFrame(bytes: Uint8Array): { raster: Raster; hasAlpha: boolean } {
  try {
    const reader = new ByteReader(bytes, 'GIF');
    const screen = readGifScreen(reader);
    const image = nextGifImage(reader, screen.blocksOffset);
    if (!image) throw malformed('GIF', 'it contains no image');
    const { width, height } = gifCanvasSize(screen, image);
    if (width === 0 || height === 0) throw malformed('GIF', `its size is ${width}x${height}`);
    const colours = image.localColours ?? screen.globalColours ?? DEFAULT_COLOURS;

    const indices = new Uint8Array(image.width * image.height);
    const decoded = decodeGifLzw(bytes, image.dataOffset, image.minCodeSize, indices);
    const data = new Uint8Array(width * height * 4);
    const palette = rgbaPalette(bytes, colours, image.transparentIndex);
    paintFrame(data, width, image, indices, decoded, palette);

    const covers = image.left === 0 && image.top === 0 && image.width === width && image.height === height;
    const hasAlpha = !covers || decoded < indices.length || usesClearColour(indices, decoded, palette);
    return { raster: { data, width, height }, hasAlpha };
  } catch (cause) {
    throw corrupt('GIF', cause);
  }
}

/**
 * A frame with neither a local nor a global table: the spec lets decoders use a table of their own. Like
 * libnsgif (sharp, libvips), index 0 is black and 1 white, the rest black, so bilevel images read right.
 */
const DEFAULT_COLOURS = 'default';

/**
 * 256 RGBA entries packed in the platform's byte order, so one 32-bit store paints a pixel.
 * The transparent index and indices past the table's end (which name no colour) stay 0: clear.
 */
function rgbaPalette(bytes: Uint8Array, table: GifColourTable | typeof DEFAULT_COLOURS, transparentIndex: number | undefined): Uint32Array {
  const palette = new Uint32Array(256);
  const channels = new Uint8Array(palette.buffer);
  if (table === DEFAULT_COLOURS) {
    for (let entry = 0; entry < 256; entry++) channels.fill(entry === 1 ? 255 : 0, entry * 4, entry * 4 + 3).fill(255, entry * 4 + 3, entry * 4 + 4);
  }
  for (let entry = 0; table !== DEFAULT_COLOURS && entry < table.entries; entry++) {
    const from = table.offset + entry * 3;
    channels[entry * 4] = bytes[from];
    channels[entry * 4 + 1] = bytes[from + 1];
    channels[entry * 4 + 2] = bytes[from + 2];
    channels[entry * 4 + 3] = 255;
  }
  if (transparentIndex !== undefined) palette[transparentIndex] = 0;
  return palette;
}

/** Maps the first `decoded` indices (stream order, so interlaced rows land where they belong) onto the canvas. */
function paintFrame(data: Uint8Array, canvasWidth: number, image: GifImage, indices: Uint8Array, decoded: number, palette: Uint32Array): void {
  const pixels = new Uint32Array(data.buffer, data.byteOffset, data.byteLength >> 2);
  let streamRow = 0;
  const paintRow = (row: number) => {
    const from = streamRow * image.width;
    const count = Math.min(image.width, decoded - from);
    const to = (image.top + row) * canvasWidth + image.left;
    for (let x = 0; x < count; x++) pixels[to + x] = palette[indices[from + x]];
    streamRow++;
  };
  if (image.interlaced) {
    for (const { start, step } of INTERLACE_PASSES) {
      for (let row = start; row < image.height && streamRow * image.width < decoded; row += step) paintRow(row);
    }
  } else {
    for (let row = 0; row < image.height && streamRow * image.width < decoded; row++) paintRow(row);
  }
}

/** Whether any decoded index paints a clear pixel (opaque entries have alpha 255, so only clear ones are 0). */
function usesClearColour(indices: Uint8Array, decoded: number, palette: Uint32Array): boolean {
  for (let i = 0; i < decoded; i++) if (palette[indices[i]] === 0) return true;
  return false;
}
