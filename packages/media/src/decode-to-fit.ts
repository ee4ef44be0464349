// Decode, resize and orient in one pass: the decoder's rows stream through the resizer (when the size
// changes) straight into their upright place in the output raster. The output, at most the fitted
// size, is the only image that exists whole; the decoder and resizer hold bands and rings of rows.
import type { Decoder, RowLayout, RowSink, Size } from './codecs/contract.js';
import { resizeKernel, resizingSink } from './kernels/resize-kernel.js';
import { orientedRaster, swapsAxes, type OrientedRaster } from './orient.js';
import type { Orientation, Raster } from './types.js';

export interface DecodeToFitRequest<Facts> {
  decode: Decoder<Facts>;
  bytes: Uint8Array;
  facts: Facts & Size;
  /** The output size, upright. */
  target: Size;
  /** EXIF orientation of the stored pixels. */
  orientation: Orientation;
}

export interface DecodedToFit {
  /** Upright, exactly `target`. */
  raster: Raster;
  hasAlpha: boolean;
}

/** Decodes `bytes` to the upright `target` size without holding the decoded image. */
export async function decodeToFit<Facts>({ decode, bytes, facts, target, orientation }: DecodeToFitRequest<Facts>): Promise<DecodedToFit> {
  const stored = swapsAxes(orientation) ? { width: target.height, height: target.width } : target;
  // The resize kernel is made before decoding starts, so rows can flow through it synchronously; a
  // decoder that shrinks while decoding (JPEG's DCT scaling, libwebp's rescaler) may leave it unused.
  const kernel = facts.width !== stored.width || facts.height !== stored.height ? await resizeKernel() : undefined;
  let output: OrientedRaster | undefined;
  let inner: (RowSink & { end?(): void }) | undefined;
  const sink: RowSink = {
    start(layout: RowLayout) {
      const placed = orientedRaster(orientation, stored, layout.bottomUp);
      output = placed;
      const direct = layout.width === stored.width && layout.height === stored.height;
      if (direct) {
        inner = { start() {}, write: (pixels, rows) => placed.write(pixels, rows) };
      } else {
        if (!kernel) throw new Error(`the decoder delivered ${layout.width}×${layout.height}, not the ${stored.width}×${stored.height} its header promised`);
        inner = resizingSink(kernel, stored, (rows, count) => placed.write(rows, count));
      }
      inner.start(layout);
    },
    write(pixels, rows) {
      if (!inner) throw new Error('the decoder wrote rows before it started');
      inner.write(pixels, rows);
    },
  };
  const { hasAlpha } = await decode({ bytes, facts, cover: stored, sink });
  inner?.end?.();
  if (!output) throw new Error('the decoder delivered no rows');
  return { raster: output.raster(), hasAlpha };
}
