// glimpse's own WebP decoder (wasm/webp/decode.c over libwebp's incremental decoder): copies a still
// WebP into the decoder a chunk at a time (libwebp keeps only what it has not read yet) and hands each
// batch of rows libwebp finishes to a row sink (it holds only that batch's window of output rows),
// optionally rescaling while it decodes (a 12 MP WebP bound for 2000 px never exists at full size).
// Each call runs in a fresh instance over a memory of the pool the modules that import theirs share
// (runtime/memory-pool.ts), given back however the call ends: a damaged file's too.
import { MediaError } from '../../errors.js';
import type { RowSink, Size } from '../../raster/contract.js';
import { rasterSink } from '../../raster/raster-rows.js';
import type { Raster } from '../../types.js';
import { withPooledMemory } from '../../runtime/memory-pool.js';
import { wasmModule } from '../../runtime/wasm.js';

interface WebpDecoderExports {
  memory: WebAssembly.Memory;
  _initialize(): void;
  alloc(bytes: number): number;
  decode_start(data: number, size: number, width: number, height: number, info: number): number;
  release(pointer: number): void;
  decode_more(data: number, size: number, last: number): number;
}

const FUNCTIONS = ['_initialize', 'alloc', 'release', 'decode_start', 'decode_more'] as const;

/** Bytes of the file copied into the decoder per step; each step then finishes some rows to hand out. */
const CHUNK_BYTES = 65536;
/** libwebp's VP8StatusCode values the loop acts on. */
const SUSPENDED = 5;
const NOT_ENOUGH_DATA = 7;

function isWebpDecoderExports(
  exports: Record<string, unknown>,
): exports is Record<string, unknown> & WebpDecoderExports {
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
  try {
    return await withPooledMemory('webp_decoder', startWebpDecoder, (instance) =>
      decodeIn(instance, bytes, size, sink),
    );
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

/** decodeWebpRows in a started instance. */
function decodeIn(
  { codec, binding }: WebpDecoderInstance,
  bytes: Uint8Array,
  size: Size | undefined,
  sink: RowSink,
): { alphaChannel: boolean } {
  binding.sink = sink;
  const chunk = codec.alloc(CHUNK_BYTES);
  const info = codec.alloc(16);
  if (chunk === 0 || info === 0) throw failure(1);
  const copyIn = (at: number, part: Uint8Array) => new Uint8Array(codec.memory.buffer, at, part.byteLength).set(part);
  // The header is in the first chunk, unless metadata before the image data (a large ICC profile) pushes
  // it further: then a longer start of the file, in a buffer released right after.
  let headerBytes = Math.min(bytes.byteLength, CHUNK_BYTES);
  for (;;) {
    const start = headerBytes <= CHUNK_BYTES ? chunk : codec.alloc(headerBytes);
    if (start === 0) throw failure(1);
    copyIn(start, bytes.subarray(0, headerBytes));
    const started = codec.decode_start(start, headerBytes, size?.width ?? 0, size?.height ?? 0, info);
    if (start !== chunk) codec.release(start);
    const status = new Uint32Array(codec.memory.buffer, info, 4)[3] ?? 0;
    if (started !== 0) break;
    if (status !== NOT_ENOUGH_DATA || headerBytes === bytes.byteLength) throw failure(status);
    headerBytes = Math.min(bytes.byteLength, headerBytes * 4);
  }
  const [outWidth = 0, height = 0, alpha = 0] = new Uint32Array(codec.memory.buffer, info, 3);
  binding.width = outWidth;
  sink.start({ width: outWidth, height, mayHaveAlpha: alpha !== 0 });
  for (let offset = 0; ; ) {
    const part = bytes.subarray(offset, offset + CHUNK_BYTES);
    copyIn(chunk, part);
    offset += part.byteLength;
    const status = codec.decode_more(chunk, part.byteLength, offset >= bytes.byteLength ? 1 : 0);
    if (status === 0) break;
    if (status !== SUSPENDED) throw failure(status);
  }
  return { alphaChannel: alpha !== 0 };
}

/** A started decoder instance and the sink its `rows_ready` import writes to, set by its decode. */
interface WebpDecoderInstance {
  codec: WebpDecoderExports;
  binding: { sink: RowSink | undefined; width: number };
}

/** A fresh decoder instance over `memory`, a memory of the pool (the module imports its memory). */
async function startWebpDecoder(memory: WebAssembly.Memory): Promise<WebpDecoderInstance> {
  const binding: WebpDecoderInstance['binding'] = { sink: undefined, width: 0 };
  const imports = {
    env: {
      memory,
      rows_ready: (rows: number, count: number) => {
        if (binding.sink) binding.sink.write(new Uint8Array(memory.buffer, rows, count * binding.width * 4), count);
      },
    },
  };
  const { exports } = await WebAssembly.instantiate(await wasmModule('webp_decoder'), imports);
  // The module imports its memory (wasm/webp/build.sh: --import-memory), so it exports none of its own.
  const codec = { ...exports, memory };
  if (exports['memory'] !== undefined || !isWebpDecoderExports(codec))
    throw new MediaError(
      'E_WASM_UNAVAILABLE',
      'The webp_decoder WASM module lacks the expected exports: rebuild it with scripts/build-wasm.sh.',
    );
  codec._initialize();
  return { codec, binding };
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
