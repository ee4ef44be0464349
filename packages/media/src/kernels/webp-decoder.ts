// glimpse's own WebP decoder (wasm/webp/decode.c over libwebp's incremental decoder): decodes a still
// WebP a chunk of the file at a time and hands each batch of rows libwebp finishes to a row sink (it
// holds only that batch's window of output rows), optionally rescaling while it decodes (a 12 MP WebP
// bound for 2000 px never exists at full size).
// Each call runs in a fresh instance, so the decoder's memory is released when the call ends.
import { MediaError } from '../errors.js';
import type { RowSink, Size } from '../codecs/contract.js';
import { rasterSink } from '../raster-rows.js';
import type { Raster } from '../types.js';
import { wasmModule } from '../wasm.js';

interface WebpDecoderExports {
  memory: WebAssembly.Memory;
  _initialize(): void;
  alloc(bytes: number): number;
  decode_start(data: number, size: number, width: number, height: number, info: number): number;
  decode_more(info: number): number;
}

const FUNCTIONS = ['_initialize', 'alloc', 'decode_start', 'decode_more'] as const;

function isWebpDecoderExports(exports: WebAssembly.Exports): exports is WebAssembly.Exports & WebpDecoderExports {
  return (
    exports['memory'] instanceof WebAssembly.Memory && FUNCTIONS.every((name) => typeof exports[name] === 'function')
  );
}

/** libwebp's VP8StatusCode values, as the decoder reports them. */
const STATUS: Readonly<Record<number, string>> = {
  1: 'out of memory',
  2: 'invalid parameter',
  3: 'bitstream error',
  4: 'unsupported feature',
  5: 'suspended',
  6: 'user abort',
  7: 'not enough data',
};

function failure(status: number): MediaError {
  if (status === 1)
    return new MediaError(
      'E_TOO_LARGE',
      'The WebP decoder ran out of memory. Lower maxInputPixels or send a smaller image.',
    );
  const reason = STATUS[status] ?? `status ${status}`;
  return new MediaError(
    'E_CORRUPT',
    `The WebP data could not be decoded (${reason}). The file is truncated or damaged: re-export it.`,
    { format: 'WebP', status },
  );
}

/**
 * Decodes a still WebP (lossy or lossless, with or without alpha) to straight-alpha RGBA8 rows into
 * `sink`. With `size`, libwebp rescales to exactly that size while decoding (area averaging with
 * premultiplied alpha). Resolves to whether the bitstream carries alpha (its pixels may still all be opaque).
 */
export async function decodeWebpRows(
  bytes: Uint8Array,
  size: Size | undefined,
  sink: RowSink,
): Promise<{ alphaChannel: boolean }> {
  let memory: WebAssembly.Memory | undefined;
  let width = 0;
  const imports = {
    env: {
      rows_ready: (rows: number, count: number) => {
        if (memory) sink.write(new Uint8Array(memory.buffer, rows, count * width * 4), count);
      },
    },
  };
  const { exports } = await WebAssembly.instantiate(await wasmModule('webp_decoder'), imports);
  if (!isWebpDecoderExports(exports))
    throw new MediaError(
      'E_WASM_UNAVAILABLE',
      'The webp_decoder WASM module lacks the expected exports: rebuild it with scripts/build-wasm.sh.',
    );
  const codec = exports;
  memory = codec.memory;
  codec._initialize();
  const data = codec.alloc(bytes.byteLength);
  const info = codec.alloc(16);
  if (data === 0 || info === 0)
    throw new MediaError('E_TOO_LARGE', `The WebP decoder could not get ${bytes.byteLength} bytes of memory.`);
  new Uint8Array(codec.memory.buffer, data, bytes.byteLength).set(bytes);
  try {
    const started = codec.decode_start(data, bytes.byteLength, size?.width ?? 0, size?.height ?? 0, info);
    const [outWidth = 0, height = 0, alpha = 0, status = 0] = new Uint32Array(codec.memory.buffer, info, 4);
    if (started === 0) throw failure(status);
    width = outWidth;
    sink.start({ width, height, mayHaveAlpha: alpha !== 0 });
    for (let more = 1; more !== 0; ) {
      more = codec.decode_more(info);
      const [state = 0] = new Uint32Array(codec.memory.buffer, info, 1);
      if (state !== 0) throw failure(state);
    }
    return { alphaChannel: alpha !== 0 };
  } catch (cause) {
    if (!(cause instanceof WebAssembly.RuntimeError)) throw cause;
    throw new MediaError(
      'E_CORRUPT',
      `The WebP data could not be decoded (${cause.message}). The file is truncated or damaged: re-export it.`,
      { format: 'WebP' },
      { cause },
    );
  }
}

export interface DecodedWebp {
  raster: Raster;
  /** The bitstream carries alpha (pixels may still all be opaque). */
  alphaChannel: boolean;
}

/** A still WebP decoded whole (optionally rescaled to `size`), as one raster. */
export async function decodeWebpStill(bytes: Uint8Array, size?: Size): Promise<DecodedWebp> {
  const sink = rasterSink();
  const { alphaChannel } = await decodeWebpRows(bytes, size, sink);
  return { raster: sink.raster(), alphaChannel };
}
