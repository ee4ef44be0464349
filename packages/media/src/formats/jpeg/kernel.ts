// glimpse's own JPEG codec (wasm/jpeg/codec.c over libjpeg-turbo): decodes at M/8 scale in the DCT
// domain and encodes baseline Huffman-optimised JPEG, both a band of rows at a time. Each call runs in an
// instance started fresh or reset to its started state (runtime/kernel-pool.ts), so a corrupt file cannot
// leave state behind; an instance that failed is dropped.
import { MediaError } from '../../errors.js';
import type { RowSink, RowSource, Size } from '../../raster/contract.js';
import { rasterSink, rasterSource } from '../../raster/raster-rows.js';
import type { Raster, Region } from '../../types.js';
import {
  copyIn,
  KernelFailure,
  kernelOutOfMemory,
  kernelTooComplex,
  type KernelExports,
  withKernel,
} from '../../runtime/kernel-instance.js';

interface JpegExports extends KernelExports {
  decode_start(data: number, size: number, scaleEighths: number, info: number): void;
  decode_window(x: number, width: number, y: number, info: number): void;
  decode_rows(out: number, count: number): void;
  decode_finish(info: number): void;
  encode_start(width: number, height: number, quality: number): void;
  encode_rows(rgba: number, count: number): void;
  encode_finish(info: number): number;
}

const FUNCTIONS = [
  'decode_start',
  'decode_window',
  'decode_rows',
  'decode_finish',
  'encode_start',
  'encode_rows',
  'encode_finish',
] as const;

/** Rows are handed over in bands of about this many bytes: small enough to stay in cache. */
const BAND_BYTES = 256 * 1024;

/**
 * The smallest libjpeg scale, in eighths, whose output still covers `margin` × `target` on both axes, so
 * the final resize only ever shrinks. Decoding at 4/8 costs about half the full decode; the scaled inverse
 * DCT drops frequencies above the new Nyquist limit, so it does not alias, but it is a softer filter than
 * the resizer's Lanczos-3: a margin of 2 leaves the last halving to the resizer.
 */
export function jpegScaleEighths(
  width: number,
  height: number,
  targetWidth: number,
  targetHeight: number,
  margin = 1,
): number {
  for (let eighths = 1; eighths < 8; eighths++) {
    if (
      Math.ceil((width * eighths) / 8) >= targetWidth * margin &&
      Math.ceil((height * eighths) / 8) >= targetHeight * margin
    )
      return eighths;
  }
  return 8;
}

/** How much of a decode came from the file when it ends early. */
export interface JpegCompleteness {
  /** Output rows in all (at the decode's scale). */
  height: number;
  /** Rows (from the top, as stored) decoded from real data; the rest are flat grey. Equals `height` unless cut short. */
  realRows: number;
  /** The scan the data ran out in (0: it did not). In scan 2 or later every row has data, with less detail. */
  eofScan: number;
}

/** Decoded pixels, and how much of them came from the file. */
export interface DecodedJpeg extends Raster, Omit<JpegCompleteness, 'height'> {}

/**
 * Decodes to RGBA8 at `scaleEighths`/8 of the stored size (EXIF orientation not applied), handing the
 * rows to `sink` a band at a time. CMYK/YCCK become RGB. Every pixel is opaque. A file cut short still
 * decodes (the missing rows flat grey); the result says how much was real (of the whole image, even
 * when only a window was delivered).
 *
 * `window`, given the decode's size, names the part of it wanted: then only the iMCU columns and the rows
 * that hold it are reconstructed (libjpeg-turbo's jpeg_crop_scanline and jpeg_skip_scanlines, with two
 * iMCUs' margin on each side so its pixels are the whole decode's), and the layout's `part` says which
 * window of the image the rows are.
 */
export async function decodeJpegRows(
  bytes: Uint8Array,
  scaleEighths: number,
  sink: RowSink,
  window?: (whole: Size) => Region,
): Promise<JpegCompleteness> {
  try {
    return await withKernel<JpegExports, JpegCompleteness>('jpeg', FUNCTIONS, new Uint8Array(0), (codec) => {
      const data = copyIn(codec, bytes, 'JPEG');
      const info = codec.alloc(8);
      codec.decode_start(data, bytes.byteLength, scaleEighths, info);
      const [wholeWidth = 0, height = 0] = new Uint32Array(codec.memory.buffer, info, 2);
      let width = wholeWidth;
      let top = 0;
      const wanted = window?.({ width: wholeWidth, height });
      if (wanted !== undefined && (wanted.width < wholeWidth || wanted.y > 0)) {
        const windowInfo = codec.alloc(12);
        codec.decode_window(wanted.x, wanted.width, wanted.y, windowInfo);
        const [left = 0, span = 0, first = 0] = new Uint32Array(codec.memory.buffer, windowInfo, 3);
        width = span;
        top = first;
        const whole = { width: wholeWidth, height };
        sink.start({ width, height: height - top, mayHaveAlpha: false, part: { x: left, y: top, whole } });
      } else {
        sink.start({ width, height, mayHaveAlpha: false });
      }
      const rowBytes = width * 4;
      const bandRows = Math.max(1, Math.min(height - top, Math.floor(BAND_BYTES / rowBytes)));
      const band = codec.alloc(bandRows * rowBytes);
      if (band === 0) throw kernelOutOfMemory('JPEG', bandRows * rowBytes);
      for (let y = top; y < height; y += bandRows) {
        const rows = Math.min(bandRows, height - y);
        codec.decode_rows(band, rows);
        sink.write(new Uint8Array(codec.memory.buffer, band, rows * rowBytes), rows);
        // A region that ends above the rest: the instance is dropped unfinished (it is never reused).
        if (sink.enough?.() === true) return { height, realRows: height, eofScan: 0 };
      }
      codec.decode_finish(info);
      const [realRows = 0, eofScan = 0] = new Uint32Array(codec.memory.buffer, info, 2);
      return { height, realRows, eofScan };
    });
  } catch (cause) {
    if (!(cause instanceof KernelFailure || cause instanceof WebAssembly.RuntimeError)) throw cause;
    if (cause instanceof KernelFailure && cause.tooComplex) throw kernelTooComplex('JPEG', cause);
    // libjpeg says "Insufficient memory"; our layer says "out of memory": the image is too big, not broken.
    if (/memory/i.test(cause.message)) throw kernelOutOfMemory('JPEG');
    throw new MediaError(
      'E_CORRUPT',
      `The JPEG data could not be decoded (${cause.message}). The file is truncated or damaged: re-export or re-capture it.`,
      { format: 'JPEG' },
      { cause },
    );
  }
}

/** Encodes the rows of `source` (alpha ignored) as baseline, Huffman-optimised, 4:2:0 JPEG at `quality` (1–100). */
export async function encodeJpegRows(source: RowSource, quality: number): Promise<Uint8Array> {
  try {
    return await withKernel<JpegExports, Uint8Array>('jpeg', FUNCTIONS, new Uint8Array(0), (codec) => {
      const { width, height } = source;
      const rowBytes = width * 4;
      const bandRows = Math.max(1, Math.min(height, Math.floor(BAND_BYTES / rowBytes)));
      const band = codec.alloc(bandRows * rowBytes);
      if (band === 0) throw kernelOutOfMemory('JPEG', bandRows * rowBytes);
      codec.encode_start(width, height, Math.round(quality));
      for (let y = 0; y < height; y += bandRows) {
        const rows = Math.min(bandRows, height - y);
        new Uint8Array(codec.memory.buffer, band, rows * rowBytes).set(source.rows(y, rows));
        codec.encode_rows(band, rows);
      }
      const info = codec.alloc(4);
      const out = codec.encode_finish(info);
      const [length = 0] = new Uint32Array(codec.memory.buffer, info, 1);
      return new Uint8Array(codec.memory.buffer.slice(out, out + length));
    });
  } catch (cause) {
    if (!(cause instanceof KernelFailure || cause instanceof WebAssembly.RuntimeError)) throw cause;
    if (/memory/i.test(cause.message)) throw kernelOutOfMemory('JPEG');
    throw new MediaError('E_CORRUPT', `The JPEG encoder failed (${cause.message}).`, { format: 'JPEG' }, { cause });
  }
}

/** The whole image decoded at `scaleEighths`/8, as one raster. */
export async function decodeJpegScaled(bytes: Uint8Array, scaleEighths = 8): Promise<DecodedJpeg> {
  const sink = rasterSink();
  const { realRows, eofScan } = await decodeJpegRows(bytes, scaleEighths, sink);
  return { ...sink.raster(), realRows, eofScan };
}

/** A whole raster encoded as baseline JPEG at `quality`. */
export async function encodeJpegBaseline(raster: Raster, quality: number): Promise<Uint8Array> {
  return encodeJpegRows(rasterSource(raster, false), quality);
}
