// GIF first-frame decoder: providers want stills, so only the first image is ever decoded. Rows of the
// frame, placed on its canvas, go to a row sink a band at a time as the LZW stream yields them.
import type { Decoder, RowSink } from '../../raster/contract.js';
import { ByteReader, corrupt as malformed } from '../byte-reader.js';
import { gifCanvasSize, nextGifImage, readGifScreen, type GifColourTable, type GifImage } from './probe.js';
import { rasterSink } from '../../raster/raster-rows.js';
import type { GifInfo, Raster } from '../../types.js';
import { gifLzwReader } from './lzw.js';
import { corrupt } from '../codec-errors.js';

/** Interlaced rows arrive in four passes: every 8th row from 0, every 8th from 4, every 4th from 2, every 2nd from 1. */
const INTERLACE_PASSES = [
  { start: 0, step: 8 },
  { start: 4, step: 8 },
  { start: 2, step: 4 },
  { start: 1, step: 2 },
] as const;

/** Canvas rows are handed over in bands of about this many bytes. */
const BAND_BYTES = 256 * 1024;

/**
 * A frame with neither a local nor a global table: the spec lets decoders use a table of their own. Like
 * libnsgif (sharp, libvips), index 0 is black and 1 white, the rest black, so bilevel images read right.
 */
const DEFAULT_COLOURS = 'default';

/** `decodeGifRows` as a codec-contract decoder. */
export const gifDecoder: Decoder<GifInfo> = async ({ bytes, sink }) => ({
  ...decodeGifRows(bytes, sink),
  lossless: true,
});

/**
 * The first frame placed on the logical screen (grown to hold the frame if it reaches past it, the size
 * `probe` reports), transparent where the frame does not cover it or its data runs out, as rows into
 * `sink`. Frame 0 needs no disposal handling: nothing precedes it. Memory: the LZW dictionary and a band
 * of canvas rows; an interlaced frame, whose rows arrive out of order, holds its colour indices (one byte
 * per frame pixel) until the last pass. The caller bounds the size first (`process` refuses what `probe`
 * reports beyond maxInputPixels). Rows may be transparent even when the header says nothing of
 * transparency (a stream that ends early), so the layout always announces possible alpha.
 */
export function decodeGifRows(bytes: Uint8Array, sink: RowSink): { hasAlpha: boolean } {
  try {
    const reader = new ByteReader(bytes, 'GIF');
    const screen = readGifScreen(reader);
    const image = nextGifImage(reader, screen.blocksOffset);
    if (!image) throw malformed('GIF', 'it contains no image');
    const { width, height } = gifCanvasSize(screen, image);
    if (width === 0 || height === 0) throw malformed('GIF', `its size is ${width}x${height}`);
    const palette = rgbaPalette(
      bytes,
      image.localColours ?? screen.globalColours ?? DEFAULT_COLOURS,
      image.transparentIndex,
    );
    sink.start({ width, height, mayHaveAlpha: true });
    const frameRows = image.interlaced ? interlacedRows(bytes, image) : sequentialRows(bytes, image);
    const covers = image.left === 0 && image.top === 0 && image.width === width && image.height === height;

    const bandRows = Math.max(1, Math.min(height, Math.floor(BAND_BYTES / (width * 4))));
    const band = new Uint8Array(bandRows * width * 4);
    const pixels = new Uint32Array(band.buffer);
    let filled = 0;
    let clear = !covers;
    for (let y = 0; y < height; y++) {
      const rowStart = filled * width;
      const r = y - image.top;
      const row = r >= 0 && r < image.height ? frameRows.row(r) : undefined;
      if (!covers || !row || row.count < image.width) pixels.fill(0, rowStart, rowStart + width);
      if (row) {
        const at = rowStart + image.left;
        for (let x = 0; x < row.count; x++) {
          const colour = palette[row.indices[x]!]!;
          pixels[at + x] = colour;
          if (colour === 0) clear = true;
        }
      }
      if (++filled === bandRows || y === height - 1) {
        sink.write(band.subarray(0, filled * width * 4), filled);
        filled = 0;
      }
    }
    return { hasAlpha: clear || frameRows.short() };
  } catch (cause) {
    throw corrupt('GIF', cause);
  }
}

/** The first frame decoded whole onto its canvas, as one raster. */
export function decodeGifFirstFrame(bytes: Uint8Array): { raster: Raster; hasAlpha: boolean } {
  const sink = rasterSink();
  const { hasAlpha } = decodeGifRows(bytes, sink);
  return { raster: sink.raster(), hasAlpha };
}

/** The frame's rows, asked for top to bottom: each row's indices and how many of them the data holds. */
interface FrameRows {
  row(r: number): { indices: Uint8Array; count: number };
  /** Whether the data ended before the frame was full. */
  short(): boolean;
}

/** A non-interlaced frame: each row is decoded when it is asked for, into one row buffer. */
function sequentialRows(bytes: Uint8Array, image: GifImage): FrameRows {
  const lzw = gifLzwReader(bytes, image.dataOffset, image.minCodeSize);
  const indices = new Uint8Array(image.width);
  let ended = false;
  return {
    row() {
      const count = ended ? 0 : lzw.read(indices, 0, image.width);
      if (count < image.width) ended = true;
      return { indices, count };
    },
    short: () => ended,
  };
}

/** An interlaced frame: its indices are all decoded first (stream order is pass order), then read by row. */
function interlacedRows(bytes: Uint8Array, image: GifImage): FrameRows {
  const indices = new Uint8Array(image.width * image.height);
  const decoded = gifLzwReader(bytes, image.dataOffset, image.minCodeSize).read(indices, 0, indices.length);
  // Where each frame row sits in stream order.
  const streamRow = new Uint32Array(image.height);
  let next = 0;
  for (const { start, step } of INTERLACE_PASSES)
    for (let r = start; r < image.height; r += step) streamRow[r] = next++;
  return {
    row(r) {
      const from = streamRow[r]! * image.width;
      return {
        indices: indices.subarray(from, from + image.width),
        count: Math.max(0, Math.min(image.width, decoded - from)),
      };
    },
    short: () => decoded < indices.length,
  };
}

/**
 * 256 RGBA entries packed in the platform's byte order, so one 32-bit store paints a pixel.
 * The transparent index and indices past the table's end (which name no colour) stay 0: clear.
 */
function rgbaPalette(
  bytes: Uint8Array,
  table: GifColourTable | typeof DEFAULT_COLOURS,
  transparentIndex: number | undefined,
): Uint32Array {
  const palette = new Uint32Array(256);
  const channels = new Uint8Array(palette.buffer);
  if (table === DEFAULT_COLOURS) {
    for (let entry = 0; entry < 256; entry++)
      channels.fill(entry === 1 ? 255 : 0, entry * 4, entry * 4 + 3).fill(255, entry * 4 + 3, entry * 4 + 4);
  }
  for (let entry = 0; table !== DEFAULT_COLOURS && entry < table.entries; entry++) {
    const from = table.offset + entry * 3;
    channels[entry * 4] = bytes[from]!;
    channels[entry * 4 + 1] = bytes[from + 1]!;
    channels[entry * 4 + 2] = bytes[from + 2]!;
    channels[entry * 4 + 3] = 255;
  }
  if (transparentIndex !== undefined) palette[transparentIndex] = 0;
  return palette;
}
