// glimpse's own WebP encoder (wasm/webp/encode.c over libwebp 1.2.4, the decoder's source), fed a band of
// rows at a time: a lossy picture is converted to YUV 4:2:0 as its rows arrive, so the instance holds the
// planes (1.5 bytes per pixel, +1 with alpha) and libwebp's state, never the image as RGBA. Lossless
// (VP8L) needs the whole image as ARGB, which libwebp's lossless encoder works on.
// Each call runs in an instance started fresh or reset from one a clean call left (runtime/kernel-pool.ts).
import type { RowSource } from '../../raster/contract.js';
import { MediaError } from '../../errors.js';
import { KernelFailure, kernelOutOfMemory, type KernelExports, withKernel } from '../../runtime/kernel-instance.js';

interface WebpEncoderExports extends KernelExports {
  encode_start(
    width: number,
    height: number,
    quality: number,
    lossless: number,
    method: number,
    mayHaveAlpha: number,
  ): number;
  encode_rows(rgba: number, rows: number): number;
  encode_finish(info: number): number;
}

const FUNCTIONS = ['encode_start', 'encode_rows', 'encode_finish'] as const;

/** Rows handed over per call: about 256 KB, an even count (4:2:0 pairs rows). */
const BAND_BYTES = 256 * 1024;

export interface WebpEncoding {
  /** 0–100; lossless ignores it. */
  quality: number;
  lossless: boolean;
  /** libwebp's speed/size trade-off, 0 (fastest) to 6. */
  method: number;
}

/** Encodes every row of `source` as a still WebP (VP8, with a lossless alpha plane when a pixel is not opaque; or VP8L). */
export async function encodeWebpRows(
  source: RowSource,
  { quality, lossless, method }: WebpEncoding,
): Promise<Uint8Array> {
  try {
    return await withKernel<WebpEncoderExports, Uint8Array>('webp_encoder', FUNCTIONS, new Uint8Array(0), (codec) => {
      const { width, height } = source;
      const rowBytes = width * 4;
      const bandRows = Math.min(height, Math.max(2, Math.floor(BAND_BYTES / rowBytes / 2) * 2));
      if (width > WEBP_MAX_SIDE || height > WEBP_MAX_SIDE) throw encodeFailure(VP8_ENC_ERROR_BAD_DIMENSION);
      const q = Math.round(quality);
      if (codec.encode_start(width, height, q, lossless ? 1 : 0, method, source.mayHaveAlpha ? 1 : 0) === 0)
        throw kernelOutOfMemory('WebP');
      const band = codec.alloc(bandRows * rowBytes);
      const info = codec.alloc(8);
      if (band === 0 || info === 0) throw kernelOutOfMemory('WebP', bandRows * rowBytes);
      for (let y = 0; y < height; y += bandRows) {
        const rows = Math.min(bandRows, height - y);
        new Uint8Array(codec.memory.buffer, band, rows * rowBytes).set(source.rows(y, rows));
        if (codec.encode_rows(band, rows) === 0) throw kernelOutOfMemory('WebP');
      }
      const out = codec.encode_finish(info);
      const [length = 0, error = 0] = new Uint32Array(codec.memory.buffer, info, 2);
      if (out === 0) throw encodeFailure(error);
      return new Uint8Array(codec.memory.buffer.slice(out, out + length));
    });
  } catch (cause) {
    if (!(cause instanceof KernelFailure || cause instanceof WebAssembly.RuntimeError)) throw cause;
    if (/memory/i.test(cause.message)) throw kernelOutOfMemory('WebP');
    throw new MediaError('E_CORRUPT', `The WebP encoder failed (${cause.message}).`, { format: 'WebP' }, { cause });
  }
}

/** The longest side a WebP may have. */
const WEBP_MAX_SIDE = 16383;

/** libwebp's WebPEncodingError values that are not a bug: out of memory, and what an image's size causes. */
const VP8_ENC_ERROR_OUT_OF_MEMORY = 1;
const VP8_ENC_ERROR_BAD_DIMENSION = 5;
const TOO_BIG: Readonly<Record<number, string>> = {
  [VP8_ENC_ERROR_BAD_DIMENSION]: `WebP allows at most ${WEBP_MAX_SIDE} px per side`,
  6: 'its first partition would pass 512 KB',
  7: 'a partition would pass 16 MB',
  9: 'the file would pass 4 GB',
};

function encodeFailure(error: number): MediaError {
  if (error === VP8_ENC_ERROR_OUT_OF_MEMORY) return kernelOutOfMemory('WebP');
  const reason = TOO_BIG[error];
  if (reason)
    return new MediaError(
      'E_TOO_LARGE',
      `The image cannot be written as WebP: ${reason}. Choose a smaller maxEdge or another output format.`,
      { format: 'WebP', error },
    );
  return new MediaError('E_CORRUPT', `The WebP encoder failed (libwebp error ${error}).`, { format: 'WebP', error });
}
