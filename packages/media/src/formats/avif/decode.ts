// AVIF decoder: the HEIF container is read in TypeScript (heif/layout.ts, shared with HEIC), and each AV1
// image item (the primary image, or one grid tile, and its alpha) is decoded by glimpse's dav1d build
// (kernel.ts), which turns it into RGBA rows that go on to the sink a band at a time. A grid is decoded a
// tile at a time, so the instance holds one tile's planes and one band of RGBA, never the whole picture;
// a single-item image's planes are whole (dav1d decodes whole frames). An item that would not fit the
// instance's memory cap is refused before it is decoded.
import { MediaError } from '../../errors.js';
import { takersSentence } from '../../presets/takers.js';
import type { RowSink, Size } from '../../raster/contract.js';
import { alphaWatch, rasterSink } from '../../raster/raster-rows.js';
import type { Raster } from '../../types.js';
import { heifPartsPresent, readHeifLayout, type HeifGrid, type HeifLayout } from '../heif/layout.js';
import { AvifFailure, type ItemDecoder, typedError, withAvifDecoder } from './kernel.js';
import { assertHeifDecodeBudget } from '../heif/decode-budget.js';
import { regularAvif } from './mini.js';

/** Rows of a single-item image are converted this many bytes at a time. */
const BAND_BYTES = 1024 * 1024;

export interface DecodedAvif {
  raster: Raster;
  /** Some pixel is not fully opaque. */
  hasAlpha: boolean;
  /**
   * The stored RGB is exact: every coded image (colour and alpha, every tile) is AV1-lossless, and the
   * colour is full-range 4:4:4 with the identity matrix (what `avifenc --lossless` writes) or gray.
   */
  lossless: boolean;
}

/** decodeAvifRows into one raster (tests and callers that want the whole image). */
export async function decodeAvif(bytes: Uint8Array, cover: Size, maxInputPixels: number): Promise<DecodedAvif> {
  const sink = rasterSink();
  const { hasAlpha, lossless } = await decodeAvifRows({ bytes, cover, maxInputPixels, sink });
  return { raster: sink.raster(), hasAlpha, lossless };
}

/**
 * Decodes the primary image of an AVIF to straight-alpha RGBA8 rows into `sink`, a band at a time,
 * cropped to its clean aperture and not yet turned upright (irot/imir are the caller's, as the probe's
 * orientation). `cover` is the stored-size target: where the image is at least twice as large, it is
 * shrunk on the way by a whole factor (each pixel the mean of a block) and comes out smaller than the
 * probe's size, never smaller than `cover`.
 */
export async function decodeAvifRows({
  bytes: file,
  cover,
  maxInputPixels,
  sink,
}: {
  bytes: Uint8Array;
  cover: Size;
  maxInputPixels: number;
  sink: RowSink;
}): Promise<{ hasAlpha: boolean; lossless: boolean }> {
  const bytes = regularAvif(file); // the compact `mini` form, as the file it stands for
  const layout = readHeifLayout(bytes, 'AVIF');
  if (!heifPartsPresent(layout, bytes.length)) {
    throw new MediaError(
      'E_CORRUPT',
      'The AVIF file is truncated: its image data runs past the end of the file. Re-export or re-download it.',
      { format: 'AVIF' },
    );
  }
  assertDecodable(layout, maxInputPixels);
  try {
    return await withAvifDecoder(bytes, layout, maxInputPixels, (decoder) => {
      const watched = alphaWatch(sink);
      const lossless = layout.grid
        ? decodeGrid(decoder, layout, layout.grid, cover, watched)
        : decodeSingle(decoder, layout, cover, watched);
      return { hasAlpha: layout.alpha !== undefined && watched.sawTransparent(), lossless };
    });
  } catch (cause) {
    throw typedError(cause);
  }
}

/** The stored image (a grid's whole canvas) and every tile are checked against the budget before decoding. */
function assertDecodable(layout: HeifLayout, maxInputPixels: number): void {
  // Every item the image is made of, grid tiles included (an HEVC grid in an AVIF-branded file is not damage).
  for (const item of layout.parts) {
    if (item.type !== 'av01' && item.type !== 'grid') {
      const role =
        item === layout.primary
          ? 'primary image'
          : item === layout.alpha?.item
            ? 'alpha image'
            : `grid tile ${item.id}`;
      throw new MediaError(
        'E_UNSUPPORTED',
        `The AVIF's ${role} is a '${item.type}' item, which glimpse does not decode (it decodes AV1 images and grids of them). ${takersSentence('image/avif', 'AVIF')} Convert it to PNG or JPEG with the app that made it.`,
        { format: 'AVIF' },
      );
    }
  }
  assertHeifDecodeBudget(layout, maxInputPixels);
  const grid = layout.grid;
  const alphaGrid = layout.alpha?.grid;
  if (
    grid &&
    layout.alpha &&
    !(
      alphaGrid &&
      alphaGrid.rows === grid.rows &&
      alphaGrid.columns === grid.columns &&
      alphaGrid.tileWidth === grid.tileWidth &&
      alphaGrid.tileHeight === grid.tileHeight
    )
  ) {
    throw new MediaError(
      'E_UNSUPPORTED',
      `The AVIF's alpha image is not tiled like its colour image, which glimpse does not decode. ${takersSentence('image/avif', 'AVIF')} Convert it to PNG with the app that made it.`,
      { format: 'AVIF' },
    );
  }
}

/** The largest whole factor that shrinks `size` no smaller than `cover` (1: decode at full size). */
function shrinkFactor(size: { width: number; height: number }, cover: { width: number; height: number }): number {
  return Math.max(
    1,
    Math.floor(Math.min(size.width / Math.max(1, cover.width), size.height / Math.max(1, cover.height))),
  );
}

/** A single-item image, a band of rows at a time; returns whether it is lossless. */
function decodeSingle(decoder: ItemDecoder, layout: HeifLayout, cover: Size, sink: RowSink): boolean {
  const picture = decoder.load(layout.primary, layout.alpha?.item);
  if (picture.width !== layout.width || picture.height !== layout.height) {
    throw new AvifFailure(
      1,
      `the image decodes to ${picture.width}×${picture.height} but declares ${layout.width}×${layout.height}`,
    );
  }
  // A clean aperture is cut at full size; otherwise the whole image may be shrunk on the way.
  const crop = layout.crop;
  const factor = crop ? 1 : shrinkFactor(layout, cover);
  const region = crop ?? {
    x: 0,
    y: 0,
    width: Math.ceil(layout.width / factor),
    height: Math.ceil(layout.height / factor),
  };
  sink.start({ width: region.width, height: region.height, mayHaveAlpha: layout.alpha !== undefined });
  const columns = region.x + region.width;
  const stride = columns * 4;
  const bandRows = Math.max(1, Math.min(region.height, Math.floor(BAND_BYTES / stride)));
  const band = decoder.alloc(stride * bandRows);
  for (let y = 0; y < region.height; y += bandRows) {
    const rows = Math.min(bandRows, region.height - y);
    decoder.rows(band, stride, region.y + y, rows, columns, factor);
    sink.write(packRows(decoder.memory(), band, stride, region.x, region.width, rows), rows);
  }
  return decoder.allLossless;
}

/**
 * `rows` rows of `width` pixels from column `x` of the rows at `band` (`stride` bytes apart), moved
 * together in place where they are not already back to back, as a view of the instance's memory.
 */
function packRows(
  memory: ArrayBuffer,
  band: number,
  stride: number,
  x: number,
  width: number,
  rows: number,
): Uint8Array {
  const bytes = new Uint8Array(memory);
  const rowBytes = width * 4;
  if (x !== 0 || stride !== rowBytes) {
    for (let row = 0; row < rows; row++) {
      const from = band + row * stride + x * 4;
      bytes.copyWithin(band + row * rowBytes, from, from + rowBytes);
    }
  }
  return bytes.subarray(band, band + rows * rowBytes);
}

/**
 * A grid, a row of tiles at a time. Shrinking needs a factor that divides the tile size, so blocks never
 * straddle two tiles; a clean aperture is cut at full size.
 */
function decodeGrid(decoder: ItemDecoder, layout: HeifLayout, grid: HeifGrid, cover: Size, sink: RowSink): boolean {
  const crop = layout.crop;
  let factor = crop ? 1 : shrinkFactor({ width: grid.outputWidth, height: grid.outputHeight }, cover);
  while (factor > 1 && (grid.tileWidth % factor !== 0 || grid.tileHeight % factor !== 0)) factor--;
  const tileWidth = grid.tileWidth / factor;
  const tileHeight = grid.tileHeight / factor;
  const canvas = { width: Math.ceil(grid.outputWidth / factor), height: Math.ceil(grid.outputHeight / factor) };
  const region = crop ?? { x: 0, y: 0, ...canvas };
  sink.start({ width: region.width, height: region.height, mayHaveAlpha: layout.alpha !== undefined });
  const stride = canvas.width * 4;
  const band = decoder.alloc(stride * tileHeight);
  const alphaTiles = layout.alpha?.grid?.tiles;
  for (let row = 0; row < grid.rows; row++) {
    const top = row * tileHeight;
    const rows = Math.min(tileHeight, canvas.height - top);
    if (rows <= 0 || top >= region.y + region.height || top + rows <= region.y) continue;
    for (let column = 0; column < grid.columns; column++) {
      const left = column * tileWidth;
      const columns = Math.min(tileWidth, canvas.width - left);
      if (columns <= 0) continue;
      const index = row * grid.columns + column;
      const tile = layout.parts.find((part) => part.id === grid.tiles[index]);
      const alphaTile = alphaTiles && layout.parts.find((part) => part.id === alphaTiles[index]);
      if (!tile || (alphaTiles && !alphaTile)) throw new AvifFailure(1, `grid tile ${index} is missing`);
      const picture = decoder.load(tile, alphaTile);
      if (picture.width !== grid.tileWidth || picture.height !== grid.tileHeight) {
        throw new AvifFailure(
          1,
          `tile ${tile.id} is ${picture.width}×${picture.height}, not the grid's ${grid.tileWidth}×${grid.tileHeight}`,
        );
      }
      decoder.rows(band + left * 4, stride, 0, rows, columns, factor);
    }
    // Hand on the band's rows that fall inside the region.
    const first = Math.max(top, region.y);
    const end = Math.min(top + rows, region.y + region.height);
    if (end > first) {
      const start = band + (first - top) * stride;
      sink.write(packRows(decoder.memory(), start, stride, region.x, region.width, end - first), end - first);
    }
  }
  return decoder.allLossless;
}
