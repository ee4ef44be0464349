// WebP adapter: glimpse's own libwebp builds (wasm/webp), the decoder (decoder-kernel.ts, which can
// rescale while decoding) and the encoder (encoder-kernel.ts, fed a band of rows at a time).
import type { Decoder, Encoder, RowSink, Size } from '../../raster/contract.js';
import { alphaWatch } from '../../raster/raster-rows.js';
import type { WebpInfo } from '../../types.js';
import { firstWebpFrame } from './frames.js';
import { decodeWebpRows } from './decoder-kernel.js';
import { encodeWebpRows } from './encoder-kernel.js';

/**
 * A WebP as a still: the image itself, decoded straight to `cover` (libwebp rescales while decoding), or
 * an animation's first frame at its own size, placed on its transparent canvas (OpenAI rejects
 * animations, the others show only one frame). libwebp holds the file, a window of the output rows one
 * batch of decoding finishes (wasm/webp/output-window.patch) and, for a lossless image, the window of
 * ARGB rows its backward references may reach (2^20 pixels, wasm/webp/vp8l-window.patch), not the whole
 * image.
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
 * Lossy keeps alpha (exact edges: the alpha plane is stored losslessly); lossless for screenshots that
 * must stay sharp. Lossy rows become YUV planes as they arrive (1.5 bytes per pixel held, 2.5 with alpha);
 * lossless holds the image as ARGB, as libwebp's VP8L encoder works on it whole. So does the alpha plane's
 * own VP8L encode, at its peak about 10 more bytes per pixel (the plane as ARGB, transformed in place by
 * wasm/webp/alpha-in-place.patch; a hash chain; backward references): a 2000×1500 picture with alpha
 * takes a 37.9 MB instance (51.5 MB before that patch).
 */
export const encodeWebp: Encoder<WebpEncodeOptions> = (source, { quality, lossless = false }) =>
  encodeWebpRows(source, { quality, lossless, method: WEBP_METHOD });
