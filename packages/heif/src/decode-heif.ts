// HEIC/HEIF decoding with glimpse's libheif + libde265 build (wasm/heif). The item graph is read in
// TypeScript (@glimpse/media's readHeifLayout); the module decodes one coded item at a time and keeps it
// as coded (YCbCr), converting rows to RGBA only as they are handed out. A grid (a phone's 12 MP photo is
// 48 tiles of 512×512) is decoded a row of tiles at a time: the instance holds that row's tiles in YCbCr
// (3 MB for a phone) and a band of 256 KB of RGBA, never the whole picture. heif.wasm imports its memory: a
// call runs in a fresh instance over a memory of @glimpse/media's pool (withPooledMemory), shared with the
// other decoders so linked (AVIF, TIFF), since a dropped memory is released late in workerd (8 HEICs at
// once grew a Worker by 377 MB when each call had its own instance).
import {
  assertHeifDecodeBudget,
  isMediaError,
  MediaError,
  heifPartsPresent,
  NEW_MEMORY_BYTES,
  readHeifLayout,
  wasiStandIns,
  withPooledMemory,
  type DecodeRequest,
  type DecodedImage,
  type HeifLayout,
} from '@glimpse/media';

interface HeifExports {
  memory: WebAssembly.Memory;
  _initialize(): void;
  alloc(bytes: number): number;
  error_message(): number;
  open_file(data: number, size: number, info: number): number;
  decode_item(id: number, slot: number, maxWidth: number, maxHeight: number, takes: number, info: number): number;
  copy_rows(slot: number, out: number, stride: number, y: number, rows: number, columns: number): void;
  set_memory_limit(bytes: number): void;
}

const FUNCTIONS = [
  '_initialize',
  'alloc',
  'error_message',
  'open_file',
  'decode_item',
  'copy_rows',
  'set_memory_limit',
] as const;

function isHeifExports(exports: WebAssembly.Exports): exports is WebAssembly.Exports & HeifExports {
  return FUNCTIONS.every((name) => typeof exports[name] === 'function');
}

/** libheif's heif_error_code values that are not about damaged data. */
const MEMORY_ALLOCATION_ERROR = 6;
const UNSUPPORTED_FEATURE = 4;

/** HEVC's largest coding tree block: a coded picture is its image padded to whole blocks at most. */
const CODING_BLOCK = 64;

/** Rows are converted to RGBA and handed to the sink about this many bytes at a time. */
const BAND_BYTES = 256 * 1024;

class HeifFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A new, started instance of the decoder over `memory` (a zeroed one of the pool). WASI calls that libc++
 * links but never makes here fail loudly.
 */
async function instantiate(module: WebAssembly.Module, memory: WebAssembly.Memory): Promise<HeifExports> {
  const wasi = wasiStandIns(
    () => memory,
    () => new HeifFailure(0, 'the HEIF decoder made a system call it is not given'),
  );
  const { exports } = await WebAssembly.instantiate(module, { env: { memory }, wasi_snapshot_preview1: wasi });
  if (!isHeifExports(exports))
    throw new MediaError(
      'E_WASM_UNAVAILABLE',
      'The heif WASM module lacks the expected exports: reinstall @glimpse/heif.',
    );
  const codec: HeifExports = { ...exports, memory };
  codec._initialize();
  return codec;
}

/**
 * Decodes the primary image of a HEIC/HEIF file to RGBA8 rows into the sink, cropped to its clean aperture,
 * not yet turned upright: a grid a row of tiles at a time, so no whole image exists outside libheif.
 * `maxMemory` (bytes): the most the decoder's WASM memory may reach; an image whose decoding would take it
 * further is E_TOO_LARGE before its pictures are allocated. Undefined: as much as the runtime gives.
 */
export async function decodeHeif(
  module: WebAssembly.Module,
  { bytes, info, maxInputPixels, sink }: DecodeRequest,
  maxMemory?: number,
): Promise<DecodedImage> {
  const format = info.mediaType === 'image/heif' ? 'HEIF' : 'HEIC';
  const layout = readHeifLayout(bytes, format);
  if (!heifPartsPresent(layout, bytes.length)) {
    throw new MediaError(
      'E_CORRUPT',
      `The ${format} file is truncated: its image data runs past the end of the file. Re-export or re-download it.`,
      { format },
    );
  }
  assertHeifDecodeBudget(layout, maxInputPixels);
  assertCodedImages(layout, format);
  try {
    return await withPooledMemory(
      'heif',
      (memory) => instantiate(module, memory),
      (codec) => decodeWith(codec, bytes, layout, sink, maxMemory),
    );
  } catch (cause) {
    throw typedError(cause, format);
  }
}

function decodeWith(
  codec: HeifExports,
  bytes: Uint8Array,
  layout: HeifLayout,
  sink: DecodeRequest['sink'],
  maxMemory: number | undefined,
): DecodedImage {
  {
    // decode.cc counts the memory's size once the file is parsed as what the instance holds; a pooled
    // memory is as large as the largest call it served left it, mostly free. So the limit is raised by
    // what it has beyond a new memory that copied this file in: the check stays the one a new
    // instance makes (up to libheif's parsed boxes), and the memory grows only past what it has already.
    if (maxMemory !== undefined) {
      const reused = Math.max(0, codec.memory.buffer.byteLength - NEW_MEMORY_BYTES - bytes.byteLength);
      codec.set_memory_limit(Math.min(maxMemory + reused, 2 ** 32 - 1));
    }
    const data = alloc(codec, bytes.byteLength);
    new Uint8Array(codec.memory.buffer, data, bytes.byteLength).set(bytes);
    const info32 = alloc(codec, 32);
    check(codec, codec.open_file(data, bytes.byteLength, info32));
    const crop = layout.crop ?? { x: 0, y: 0, width: layout.width, height: layout.height };
    const rowBytes = crop.width * 4;
    let scratch = new Uint8Array(0);
    let sawTransparent = false;
    // Hands rows [y, y + rows) of the stored image, held `stride` bytes apart at `from`, to the sink: those
    // inside the crop, cut to its columns (a view of the codec's memory when no cut is needed).
    const keep = (from: number, stride: number, y: number, rows: number, alpha: boolean) => {
      const first = Math.max(y, crop.y);
      const count = Math.min(y + rows, crop.y + crop.height) - first;
      if (count <= 0) return;
      let pixels: Uint8Array;
      if (crop.x === 0 && stride === rowBytes) {
        pixels = new Uint8Array(codec.memory.buffer, from + (first - y) * stride, count * rowBytes);
      } else {
        if (scratch.length < count * rowBytes) scratch = new Uint8Array(count * rowBytes);
        for (let row = 0; row < count; row++) {
          const start = from + (first - y + row) * stride + crop.x * 4;
          scratch.set(new Uint8Array(codec.memory.buffer, start, rowBytes), row * rowBytes);
        }
        pixels = scratch.subarray(0, count * rowBytes);
      }
      if (alpha && !sawTransparent) sawTransparent = anyTransparent(pixels);
      sink.write(pixels, count);
    };
    let alphaPlane: boolean;
    if (layout.grid && !layout.hasAlpha) {
      alphaPlane = false;
      const { grid } = layout;
      const stride = grid.outputWidth * 4;
      const bandRows = Math.max(1, Math.min(grid.tileHeight, Math.floor(BAND_BYTES / stride)));
      const band = alloc(codec, stride * bandRows);
      sink.start({ width: crop.width, height: crop.height, mayHaveAlpha: false });
      for (let row = 0; row < grid.rows; row++) {
        const top = row * grid.tileHeight;
        const rows = Math.min(grid.tileHeight, grid.outputHeight - top);
        if (rows <= 0 || top >= crop.y + crop.height || top + rows <= crop.y) continue;
        // The row's tiles, each into the slot of its column (freeing the tile above it first).
        const columns: number[] = [];
        for (let column = 0; column < grid.columns; column++) {
          const left = column * grid.tileWidth;
          const width = Math.min(grid.tileWidth, grid.outputWidth - left);
          if (width <= 0) break;
          const tile = grid.tiles[row * grid.columns + column] ?? 0;
          const [tileWidth = 0, tileHeight = 0] = decodeItem(
            codec,
            tile,
            column,
            grid.tileWidth,
            grid.tileHeight,
            1,
            info32,
          );
          if (tileWidth < width || tileHeight < rows)
            throw new HeifFailure(
              2,
              `tile ${tile} is ${tileWidth}×${tileHeight}, smaller than the grid's ${grid.tileWidth}×${grid.tileHeight}`,
            );
          columns.push(width);
        }
        const first = Math.max(0, crop.y - top);
        const end = Math.min(rows, crop.y + crop.height - top);
        for (let y = first; y < end; y += bandRows) {
          const count = Math.min(bandRows, end - y);
          columns.forEach((width, column) => {
            codec.copy_rows(column, band + column * grid.tileWidth * 4, stride, y, count, width);
          });
          keep(band, stride, top + y, count, false);
        }
      }
    } else {
      const [width = 0, height = 0, , alpha = 0] = decodeItem(
        codec,
        layout.primary.id,
        0,
        layout.width,
        layout.height,
        codedPictures(layout),
        info32,
      );
      if (width !== layout.width || height !== layout.height)
        throw new HeifFailure(
          2,
          `the image decodes to ${width}×${height} but declares ${layout.width}×${layout.height}`,
        );
      alphaPlane = alpha !== 0;
      sink.start({ width: crop.width, height: crop.height, mayHaveAlpha: alphaPlane });
      const stride = width * 4;
      const bandRows = Math.max(1, Math.min(height, Math.floor(BAND_BYTES / stride)));
      const band = alloc(codec, stride * bandRows);
      for (let y = crop.y; y < crop.y + crop.height; y += bandRows) {
        const rows = Math.min(bandRows, crop.y + crop.height - y);
        codec.copy_rows(0, band, stride, y, rows, width);
        keep(band, stride, y, rows, alphaPlane);
      }
    }
    return { hasAlpha: alphaPlane && sawTransparent };
  }
}

/**
 * Only HEVC-coded images, alone or as a grid's tiles (and the alpha image, likewise), reach libheif: it
 * decodes any image item by its type, and a derived one (an `iden`, an `iovl` overlay, a grid inside a grid)
 * builds a canvas of whatever size its own data declares, past the budget checked from the header.
 */
function assertCodedImages(layout: HeifLayout, format: string): void {
  const grids = new Set([layout.primary, layout.alpha?.item]);
  for (const part of layout.parts) {
    if (part.type === 'hvc1' || (part.type === 'grid' && grids.has(part))) continue;
    throw new MediaError(
      'E_UNSUPPORTED',
      `The ${format} image is made of a '${part.type}' item, which glimpse does not decode (it decodes HEVC images and grids of them). Convert it to JPEG or PNG with the app that made it.`,
      { format },
    );
  }
}

/**
 * Decodes item `id` into `slot`. Its HEVC stream may code a picture no larger than the declared
 * width×height rounded up to whole 64-sample coding blocks: the pixel budget was checked against the
 * declared size, and libde265 would allocate whatever its stream says.
 */
function decodeItem(
  codec: HeifExports,
  id: number,
  slot: number,
  width: number,
  height: number,
  takes: number,
  info: number,
): Uint32Array {
  const block = (size: number) => Math.ceil(size / CODING_BLOCK) * CODING_BLOCK;
  check(codec, codec.decode_item(id, slot, block(width), block(height), takes, info));
  return new Uint32Array(codec.memory.buffer, info, 5).slice();
}

/**
 * How many HEVC pictures decoding the primary image makes that the module may keep as libde265 decoded
 * them, without libheif's copy: the image's own and its alpha image's, when each is one coded item. A
 * grid is assembled by libheif from tiles converted to RGB, which needs its copies (0).
 */
function codedPictures(layout: HeifLayout): number {
  if (layout.primary.type !== 'hvc1') return 0;
  return layout.alpha && layout.alpha.item.type === 'hvc1' && !layout.alpha.grid ? 2 : 1;
}

function alloc(codec: HeifExports, bytes: number): number {
  const pointer = codec.alloc(bytes);
  if (pointer === 0) throw new HeifFailure(MEMORY_ALLOCATION_ERROR, `could not get ${bytes} bytes of memory`);
  return pointer;
}

function check(codec: HeifExports, status: number): void {
  if (status === 0) return;
  const bytes = new Uint8Array(codec.memory.buffer);
  const start = codec.error_message();
  let end = start;
  while (end < bytes.length && bytes[end] !== 0) end++;
  throw new HeifFailure(status, new TextDecoder().decode(bytes.subarray(start, end)));
}

function anyTransparent(rgba: Uint8Array): boolean {
  for (let i = 3; i < rgba.length; i += 4) if (rgba[i] !== 255) return true;
  return false;
}

function typedError(cause: unknown, format: string): unknown {
  if (isMediaError(cause)) return cause;
  if (cause instanceof HeifFailure) {
    if (cause.status === MEMORY_ALLOCATION_ERROR) {
      return new MediaError(
        'E_TOO_LARGE',
        `The ${format} image does not fit in the decoder's memory (${cause.message}). Send a smaller image, or convert it to JPEG first.`,
        { format },
      );
    }
    if (cause.status === UNSUPPORTED_FEATURE) {
      return new MediaError(
        'E_UNSUPPORTED',
        `The ${format} file uses something the decoder does not support (${cause.message}). Convert it to JPEG or PNG with the app that made it.`,
        { format },
      );
    }
    return new MediaError(
      'E_CORRUPT',
      `The ${format} data could not be decoded (${cause.message}). The file is truncated or damaged: re-export or re-download it.`,
      { format },
      { cause },
    );
  }
  if (cause instanceof WebAssembly.RuntimeError) {
    return new MediaError(
      'E_CORRUPT',
      `The ${format} decoder stopped (${cause.message}): the file is damaged, or too large for this runtime's memory. Re-export it, or send a smaller image.`,
      { format },
      { cause },
    );
  }
  if (cause instanceof RangeError) {
    return new MediaError(
      'E_TOO_LARGE',
      `The decoded ${format} image does not fit in memory (${cause.message}). Lower maxInputPixels or send a smaller image.`,
      { format },
      { cause },
    );
  }
  return cause;
}
