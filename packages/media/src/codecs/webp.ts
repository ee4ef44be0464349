// WebP adapter: glimpse's own libwebp decoder build (kernels/webp-decoder.ts, which can rescale while
// decoding) and libwebp's encoder via @jsquash/webp. The encoder build must match the runtime's SIMD support.
import encodeWasm, { init as initEncoder } from '@jsquash/webp/encode.js';
import type { Decoder, Encoder, RowSink, Size } from './contract.js';
import { alphaWatch } from '../raster-rows.js';
import type { WebpInfo } from '../types.js';
import { firstWebpFrame } from '../webp-frames.js';
import { wasmModule, wasmSimdSupported } from '../wasm.js';
import { decodeWebpRows } from '../kernels/webp-decoder.js';
import { lazy, QUIET_EMSCRIPTEN, type EmscriptenInit } from './codec-support.js';

// jSquash picks its SIMD or plain glue by feature detection inside init; hand it the matching module.
const encoderReady = lazy(async () =>
  (initEncoder as unknown as EmscriptenInit)(
    await wasmModule(wasmSimdSupported() ? 'webp_enc_simd' : 'webp_enc'),
    QUIET_EMSCRIPTEN,
  ),
);

/**
 * A WebP as a still: the image itself, decoded straight to `cover` (libwebp rescales while decoding), or
 * an animation's first frame at its own size, placed on its transparent canvas (OpenAI rejects
 * animations, the others show only one frame). libwebp holds the output-sized RGBA it writes rows into
 * and, for a lossless image, the window of ARGB rows its backward references may reach (2^20 pixels,
 * wasm/webp/vp8l-window.patch), not the whole image.
 */
export const webpDecoder: Decoder<WebpInfo> = async ({ bytes, facts, cover, sink }) => {
  const frame = facts.frames > 1 ? firstWebpFrame(bytes) : undefined;
  if (!frame) {
    const watched = alphaWatch(sink);
    const { alphaChannel } = await decodeWebpRows(bytes, cover, watched);
    return { hasAlpha: alphaChannel && watched.sawTransparent(), lossless: facts.lossless };
  }
  const canvas = { width: frame.canvasWidth, height: frame.canvasHeight };
  const placed = onCanvas(sink, canvas, frame);
  const watched = alphaWatch(placed);
  await decodeWebpRows(frame.still, undefined, watched);
  placed.end();
  const covers = frame.x === 0 && frame.y === 0 && frame.width === canvas.width && frame.height === canvas.height;
  return { hasAlpha: !covers || watched.sawTransparent(), lossless: facts.lossless };
};

/** A sink for a frame's rows that hands `sink` the canvas rows they make: transparent around the frame. */
function onCanvas(sink: RowSink, canvas: Size, frame: { x: number; y: number }): RowSink & { end(): void } {
  const rowBytes = canvas.width * 4;
  const row = new Uint8Array(rowBytes);
  let given = 0;
  let frameWidth = 0;
  const clearRowsTo = (end: number) => {
    row.fill(0);
    for (; given < end; given++) sink.write(row, 1);
  };
  return {
    start(layout) {
      frameWidth = Math.min(layout.width, canvas.width - frame.x);
      sink.start({ ...canvas, mayHaveAlpha: true });
      clearRowsTo(frame.y);
    },
    write(pixels, rows) {
      for (let r = 0; r < rows && given < canvas.height; r++, given++) {
        row.fill(0);
        const from = r * (pixels.byteLength / rows);
        row.set(pixels.subarray(from, from + frameWidth * 4), frame.x * 4);
        sink.write(row, 1);
      }
    },
    end: () => clearRowsTo(canvas.height),
  };
}

export interface WebpEncodeOptions {
  /** 0–100 lossy quality; `lossless` ignores it. */
  quality: number;
  lossless?: boolean;
}

/**
 * libwebp's speed/size trade-off (0–6). Measured on a 2000×1500 photo at q85 (npm run bench inputs):
 * method 4 (libwebp's default) 333 ms / 201 KB / 38.28 dB; method 1 114 ms / 210 KB / 38.20 dB.
 */
const WEBP_METHOD = 1;

/**
 * Lossy keeps alpha (exact edges via alpha_quality 100); lossless for screenshots that must stay sharp.
 * jSquash's encoder takes the whole image, so the rows are gathered into one buffer it can own.
 */
export const encodeWebp: Encoder<WebpEncodeOptions> = async (source, { quality, lossless = false }) => {
  await encoderReady();
  const data = new Uint8ClampedArray(source.width * source.height * 4);
  data.set(source.rows(0, source.height));
  const image = { data, width: source.width, height: source.height, colorSpace: 'srgb' as const };
  const encoded = await encodeWasm(image, {
    quality,
    lossless: lossless ? 1 : 0,
    method: WEBP_METHOD,
    alpha_quality: 100,
    exact: 0,
  });
  return new Uint8Array(encoded);
};
