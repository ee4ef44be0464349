// glimpse's TIFF decoder (wasm/tiff/decode.c over libtiff, zlib and libjpeg-turbo): the first page as
// straight-alpha RGBA8 rows, a band at a time, into a sink. The file stays here: libtiff reads the bytes
// it needs at their offsets through `env.read_at`. An instance a call before left is reused
// (runtime/kernel-pool.ts), as the JPEG and PNG kernels' are.
import type { RowSink } from '../../raster/contract.js';
import { undecodable, unsupportedFeature } from '../codec-errors.js';
import { isMediaError } from '../../errors.js';
import { alphaWatch } from '../../raster/raster-rows.js';
import { KernelFailure, kernelOutOfMemory, type KernelExports, withKernel } from '../../runtime/kernel-instance.js';

interface TiffExports extends KernelExports {
  error_message(): number;
  damage_message(): number;
  open_file(size: number, info: number): number;
  read_rows(out: number, y: number, rows: number): number;
}

const FUNCTIONS = ['error_message', 'damage_message', 'open_file', 'read_rows'] as const;

/** A band is about this many bytes of RGBA, rounded up to what the file must be read in (decode.c). */
const BAND_BYTES = 256 * 1024;

/**
 * Decodes the first page of a TIFF into `sink`, top row first in stored order (the Orientation tag is the
 * caller's). Strips are read a scanline at a time, so the instance holds one band; tiles (and separate
 * planes, subsampled YCbCr) a band of whole tile rows or strips, at least one of them. Resolves to whether
 * some pixel is not fully opaque.
 */
export async function decodeTiffRows(
  bytes: Uint8Array,
  sink: RowSink,
): Promise<{ hasAlpha: boolean; damaged?: string }> {
  const watched = alphaWatch(sink);
  try {
    return await withKernel<TiffExports, { hasAlpha: boolean; damaged?: string }>('tiff', FUNCTIONS, bytes, (codec) =>
      decodeWith(codec, bytes, watched),
    );
  } catch (cause) {
    throw typedError(cause);
  }
}

function decodeWith(
  codec: TiffExports,
  bytes: Uint8Array,
  watched: ReturnType<typeof alphaWatch>,
): { hasAlpha: boolean; damaged?: string } {
  {
    const info = codec.alloc(20);
    if (info === 0) throw kernelOutOfMemory('TIFF', 20);
    if (!codec.open_file(bytes.byteLength, info)) throw new KernelFailure(lastError(codec));
    const [width = 0, height = 0, alpha = 0, unit = 1] = new Uint32Array(codec.memory.buffer, info, 4);
    const rowBytes = width * 4;
    const unitRows = Math.max(1, Math.min(unit, height));
    const bandRows = Math.min(
      height,
      Math.ceil(Math.max(unitRows, Math.floor(BAND_BYTES / rowBytes)) / unitRows) * unitRows,
    );
    const band = codec.alloc(bandRows * rowBytes);
    if (band === 0) throw kernelOutOfMemory('TIFF', bandRows * rowBytes);
    watched.start({ width, height, mayHaveAlpha: alpha !== 0 });
    for (let y = 0; y < height; y += bandRows) {
      const rows = Math.min(bandRows, height - y);
      if (!codec.read_rows(band, y, rows)) throw new KernelFailure(lastError(codec));
      watched.write(new Uint8Array(codec.memory.buffer, band, rows * rowBytes), rows);
    }
    // libjpeg carries on over damaged JPEG-in-TIFF data, filling what it could not read: say so.
    const damaged = cString(codec, codec.damage_message());
    return { hasAlpha: watched.sawTransparent(), ...(damaged && { damaged: `libjpeg: ${damaged}` }) };
  }
}

function typedError(cause: unknown): unknown {
  if (isMediaError(cause)) return cause;
  if (!(cause instanceof KernelFailure || cause instanceof WebAssembly.RuntimeError)) return cause;
  if (/out of memory|cannot allocate|no space/i.test(cause.message)) return kernelOutOfMemory('TIFF');
  // libjpeg (JPEG-in-TIFF) calls a damaged marker "unsupported": that is damage, not a missing feature.
  if (/Unsupported marker type|Corrupt JPEG data|Bogus|Premature end/i.test(cause.message))
    return undecodable('TIFF', cause.message, 're-export or re-scan it', cause);
  if (/sorry|not supported|unsupported|can not handle|cannot handle/i.test(cause.message)) {
    return unsupportedFeature('image/tiff', 'TIFF', cause.message, cause);
  }
  return undecodable('TIFF', cause.message, 're-export or re-scan it', cause);
}

function lastError(codec: TiffExports): string {
  return cString(codec, codec.error_message()) || 'libtiff gave no reason';
}

function cString(codec: TiffExports, start: number): string {
  const bytes = new Uint8Array(codec.memory.buffer);
  let end = start;
  while (end < bytes.length && bytes[end] !== 0) end++;
  return new TextDecoder().decode(bytes.subarray(start, end));
}
