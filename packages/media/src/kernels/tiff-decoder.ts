// glimpse's TIFF decoder (wasm/tiff/decode.c over libtiff, zlib and libjpeg-turbo): the first page as
// straight-alpha RGBA8, read a band of strips or tiles at a time, so the instance holds one band and the
// codec's own strip buffer, never the whole decoded image. A fresh instance per call.
import { MediaError } from '../errors.js';
import { anyTransparent } from '../pixels.js';
import { takersSentence } from '../takers.js';
import type { Raster } from '../types.js';
import { copyIn, instantiateKernel, KernelFailure, kernelOutOfMemory, type KernelExports } from './kernel-instance.js';

interface TiffExports extends KernelExports {
  error_message(): number;
  open_file(data: number, size: number, info: number): number;
  read_rows(out: number, y: number, rows: number): number;
}

const FUNCTIONS = ['error_message', 'open_file', 'read_rows'] as const;

/** Bands are at least this many bytes, and whole strips or tile rows (re-reading a strip costs its decode). */
const BAND_BYTES = 1024 * 1024;

export interface DecodedTiff {
  raster: Raster;
  /** Some pixel is not fully opaque. */
  hasAlpha: boolean;
}

/** Decodes the first page of a TIFF to RGBA8 in stored order (the Orientation tag is the caller's). */
export async function decodeTiffRgba(bytes: Uint8Array): Promise<DecodedTiff> {
  const codec = await instantiateKernel<TiffExports>('tiff', FUNCTIONS);
  try {
    const data = copyIn(codec, bytes, 'TIFF');
    const info = codec.alloc(20);
    if (info === 0) throw kernelOutOfMemory('TIFF', 20);
    if (!codec.open_file(data, bytes.byteLength, info)) throw new KernelFailure(lastError(codec));
    const [width = 0, height = 0, alpha = 0, unit = 0] = new Uint32Array(codec.memory.buffer, info, 4);
    const rowBytes = width * 4;
    const pixels = ownedPixels(rowBytes * height);
    const unitRows = Math.max(1, Math.min(unit || 1, height));
    const bandRows = Math.min(
      height,
      Math.ceil(Math.max(unitRows, Math.floor(BAND_BYTES / rowBytes)) / unitRows) * unitRows,
    );
    const band = codec.alloc(bandRows * rowBytes);
    if (band === 0) throw kernelOutOfMemory('TIFF', bandRows * rowBytes);
    for (let y = 0; y < height; y += bandRows) {
      const rows = Math.min(bandRows, height - y);
      if (!codec.read_rows(band, y, rows)) throw new KernelFailure(lastError(codec));
      pixels.set(new Uint8Array(codec.memory.buffer, band, rows * rowBytes), y * rowBytes);
    }
    const raster = { data: pixels, width, height };
    return { raster, hasAlpha: alpha !== 0 && anyTransparent(raster) };
  } catch (cause) {
    if (!(cause instanceof KernelFailure || cause instanceof WebAssembly.RuntimeError)) throw cause;
    if (/out of memory|cannot allocate|no space/i.test(cause.message)) throw kernelOutOfMemory('TIFF');
    if (/sorry|not supported|unsupported|can not handle|cannot handle/i.test(cause.message)) {
      throw new MediaError(
        'E_UNSUPPORTED',
        `This TIFF uses something glimpse cannot decode (${cause.message}). ${takersSentence('image/tiff', 'TIFF')} Convert it to PNG or JPEG with the app that made it.`,
        { format: 'TIFF' },
        { cause },
      );
    }
    throw new MediaError(
      'E_CORRUPT',
      `The TIFF data could not be decoded (${cause.message}). The file is truncated or damaged: re-export or re-scan it.`,
      { format: 'TIFF' },
      { cause },
    );
  }
}

function lastError(codec: TiffExports): string {
  const bytes = new Uint8Array(codec.memory.buffer);
  const start = codec.error_message();
  let end = start;
  while (end < bytes.length && bytes[end] !== 0) end++;
  return new TextDecoder().decode(bytes.subarray(start, end)) || 'libtiff gave no reason';
}

function ownedPixels(bytes: number): Uint8Array {
  try {
    return new Uint8Array(bytes);
  } catch (cause) {
    if (cause instanceof RangeError) throw kernelOutOfMemory('TIFF', bytes);
    throw cause;
  }
}
