// glimpse's own PNG codec (wasm/png/codec.c over libpng and zlib): decodes every PNG kind to RGBA8 and
// encodes 8-bit RGB or RGBA PNG, both a band of rows at a time. Each call runs in a fresh instance, so a
// corrupt file cannot leave state behind, over a memory of the pool the codecs share, given back zeroed
// however the call ends (runtime/memory-pool.ts; the squoosh codec it replaced was one instance per
// process whose memory only grew).
import { MediaError } from '../../errors.js';
import type { RowSink, RowSource } from '../../raster/contract.js';
import { rasterSink, rasterSource } from '../../raster/raster-rows.js';
import type { Raster } from '../../types.js';
import { KernelFailure, kernelOutOfMemory, type KernelExports, withKernel } from '../../runtime/kernel-instance.js';

interface PngExports extends KernelExports {
  decode_start(info: number): void;
  decode_rows(out: number, count: number): void;
  decode_finish(): number;
  encode_opaque(rgba: number, pixels: number): number;
  encode_start(width: number, height: number, level: number, opaque: number, limit: number): void;
  encode_rows(rgba: number, count: number): number;
  encode_finish(info: number): number;
}

const FUNCTIONS = [
  'decode_start',
  'decode_rows',
  'decode_finish',
  'encode_opaque',
  'encode_start',
  'encode_rows',
  'encode_finish',
] as const;

/** A decoded PNG and whether any of its pixels is not fully opaque (found while decoding). */
export interface DecodedPng {
  raster: Raster;
  hasAlpha: boolean;
}

/** Rows are handed over in bands of about this many bytes: small enough to stay in cache. */
const BAND_BYTES = 256 * 1024;

/** The encoder keeps the PNG in blocks of this many bytes (OUTPUT_BLOCK in wasm/png/codec.c). */
const OUTPUT_BLOCK = 2 ** 20;

/**
 * Decodes any PNG (palette, tRNS, gray, gray+alpha, 16-bit, interlaced; APNG's default image) to RGBA8
 * rows into `sink`, a band at a time; `mayHaveAlpha` is what the header says. Resolves to whether some
 * pixel is not fully opaque (the decoder checks each row as it goes). An interlaced image is the
 * exception the format imposes: its seven passes each refine the whole image, so the instance holds it
 * (4 bytes per pixel) until the last pass, then hands out its rows.
 */
export async function decodePngRows(
  bytes: Uint8Array,
  mayHaveAlpha: boolean,
  sink: RowSink,
): Promise<{ hasAlpha: boolean }> {
  // The decoder reads the file through a 64 KB buffer (env.read_input): the instance never holds it whole.
  try {
    return await withKernel<PngExports, { hasAlpha: boolean }>('png', FUNCTIONS, bytes, (codec) => {
      const info = codec.alloc(12);
      codec.decode_start(info);
      const [width = 0, height = 0, passes = 1] = new Uint32Array(codec.memory.buffer, info, 3);
      sink.start({ width, height, mayHaveAlpha });
      const rowBytes = width * 4;
      const bandRows = Math.max(1, Math.min(height, Math.floor(BAND_BYTES / rowBytes)));
      if (passes === 1) {
        // A band at a time through a small buffer: the instance never holds (or faults in) the whole image.
        const band = alloc(codec, bandRows * rowBytes);
        for (let y = 0; y < height; y += bandRows) {
          const rows = Math.min(bandRows, height - y);
          codec.decode_rows(band, rows);
          sink.write(new Uint8Array(codec.memory.buffer, band, rows * rowBytes), rows);
          // A region that ends above the rest: the call ends unfinished; alpha is what the header allows.
          if (sink.enough?.() === true) return { hasAlpha: mayHaveAlpha };
        }
      } else {
        const whole = alloc(codec, rowBytes * height);
        for (let pass = 0; pass < passes; pass++) codec.decode_rows(whole, height);
        for (let y = 0; y < height; y += bandRows) {
          const rows = Math.min(bandRows, height - y);
          sink.write(new Uint8Array(codec.memory.buffer, whole + y * rowBytes, rows * rowBytes), rows);
        }
      }
      return { hasAlpha: codec.decode_finish() !== 0 };
    });
  } catch (cause) {
    if (!(cause instanceof KernelFailure || cause instanceof WebAssembly.RuntimeError)) throw cause;
    // libpng says "Out of memory"; our layer says "out of memory for …": the image is too big, not broken.
    if (/out of memory/i.test(cause.message)) throw kernelOutOfMemory('PNG');
    throw new MediaError(
      'E_CORRUPT',
      `The PNG data could not be decoded (${cause.message}). The file is truncated or damaged: re-export or re-capture it.`,
      { format: 'PNG' },
      { cause },
    );
  }
}

function alloc(codec: PngExports, bytes: number): number {
  const pointer = codec.alloc(bytes);
  if (pointer === 0) throw kernelOutOfMemory('PNG', bytes);
  return pointer;
}

/** Decodes any PNG whole, as one raster. */
export async function decodePngRgba(bytes: Uint8Array): Promise<Raster> {
  return (await decodePngRgbaWithAlpha(bytes)).raster;
}

/** As decodePngRgba, plus whether any pixel is not fully opaque. */
export async function decodePngRgbaWithAlpha(bytes: Uint8Array): Promise<DecodedPng> {
  const sink = rasterSink();
  const { hasAlpha } = await decodePngRows(bytes, true, sink);
  return { raster: sink.raster(), hasAlpha };
}

/**
 * Encodes the rows of `source` as an 8-bit PNG with adaptive filtering at zlib `level` (0–9): RGB when
 * every pixel is opaque, RGBA otherwise. Lossless either way. Rows are read twice when the source may
 * have alpha (first to learn whether every pixel is opaque, stopping at the first band that is not).
 */
export async function encodePngRows(source: RowSource, level: number): Promise<Uint8Array> {
  const data = await encodePngRowsWithin(source, level, 0);
  if (!data) throw new Error('a PNG without a byte limit passed it');
  return data;
}

/**
 * As encodePngRows, but given up (undefined) as soon as the PNG would pass `maxBytes` (0: no limit): the
 * rows after that point are not compressed, and the instance holds at most `maxBytes` of output instead
 * of the whole file in a buffer that doubles as it grows.
 */
export async function encodePngRowsWithin(
  source: RowSource,
  level: number,
  maxBytes: number,
): Promise<Uint8Array | undefined> {
  try {
    return await withKernel<PngExports, Uint8Array | undefined>('png', FUNCTIONS, new Uint8Array(0), (codec) => {
      const { width, height } = source;
      const rowBytes = width * 4;
      const bandRows = Math.max(1, Math.min(height, Math.floor(BAND_BYTES / rowBytes)));
      const band = alloc(codec, bandRows * rowBytes);
      // Bands through a small buffer: the instance never holds the whole image.
      const copyBand = (y: number): number => {
        const rows = Math.min(bandRows, height - y);
        new Uint8Array(codec.memory.buffer, band, rows * rowBytes).set(source.rows(y, rows));
        return rows;
      };
      let opaque = true;
      if (source.mayHaveAlpha)
        for (let y = 0; y < height && opaque; y += bandRows)
          opaque = codec.encode_opaque(band, copyBand(y) * width) !== 0;
      codec.encode_start(width, height, level, opaque ? 1 : 0, maxBytes);
      for (let y = 0; y < height; y += bandRows) if (codec.encode_rows(band, copyBand(y)) === 0) return undefined;
      const info = alloc(codec, 8);
      const blocks = codec.encode_finish(info);
      if (blocks === 0) return undefined;
      const [length = 0, count = 0] = new Uint32Array(codec.memory.buffer, info, 2);
      // The PNG is kept in blocks of OUTPUT_BLOCK bytes (wasm/png/codec.c), copied out in order.
      const png = new Uint8Array(length);
      new Uint32Array(codec.memory.buffer, blocks, count).forEach((block, i) => {
        const at = i * OUTPUT_BLOCK;
        png.set(new Uint8Array(codec.memory.buffer, block, Math.min(OUTPUT_BLOCK, length - at)), at);
      });
      return png;
    });
  } catch (cause) {
    if (!(cause instanceof KernelFailure || cause instanceof WebAssembly.RuntimeError)) throw cause;
    if (/out of memory/i.test(cause.message)) throw kernelOutOfMemory('PNG');
    throw new MediaError('E_CORRUPT', `The PNG encoder failed (${cause.message}).`, { format: 'PNG' }, { cause });
  }
}

/** A whole raster encoded as PNG (see encodePngRows). */
export async function encodePngRgba(raster: Raster, level: number): Promise<Uint8Array> {
  return encodePngRows(rasterSource(raster, true), level);
}
