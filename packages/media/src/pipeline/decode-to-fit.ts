// Decode, resize and orient in one pass: the decoder's rows stream through the resizer (when the size
// changes) straight into their upright place in the output raster. The output, at most the fitted
// size, is the only image that exists whole; the decoder and resizer hold bands and rings of rows.
import type { DecodeRequest, DecodeResult, RowLayout, RowSink, Size } from '../raster/contract.js';
import { resizeKernel, resizingSink } from '../raster/resize-kernel.js';
import { orientedRaster, type OrientedRaster } from '../raster/orient.js';
import { rasterBuffer } from '../raster/raster-buffers.js';
import type { Orientation, Raster } from '../types.js';
import { NO_DEADLINE, type Deadline } from '../runtime/deadline.js';
import { MediaError } from '../errors.js';

/** A decode request without the facts and the pixel budget, which the caller binds to its format's decoder. */
export type DecodeJob = Pick<DecodeRequest<unknown>, 'bytes' | 'cover' | 'sink'>;

export interface DecodeToFitRequest {
  /** The format's decoder, bound to its probe facts. */
  decode: (job: DecodeJob) => Promise<DecodeResult>;
  bytes: Uint8Array;
  /** The image's size as stored, from its header. */
  stored: Size;
  /** The size to resize to, as stored: turned upright, it is the output's size. */
  fitted: Size;
  /** EXIF orientation of the stored pixels. */
  orientation: Orientation;
  /** Checked as each band of rows arrives, so a decoder that streams (tile rows, strips) stops between bands. */
  deadline?: Deadline;
}

export interface DecodedToFit extends DecodeResult {
  /** Upright: `fitted` turned by the orientation. */
  raster: Raster;
}

/**
 * Decodes `bytes` to the `fitted` size, turned upright, without holding the decoded image. The raster is
 * from raster-buffers.ts: the caller gives it back (releaseRasterBuffer) once its output is encoded.
 */
export async function decodeToFit({
  decode,
  bytes,
  stored,
  fitted,
  orientation,
  deadline = NO_DEADLINE,
}: DecodeToFitRequest): Promise<DecodedToFit> {
  // The resize kernel is made before decoding starts, so rows can flow through it synchronously; a
  // decoder that shrinks while decoding (JPEG's DCT scaling, libwebp's rescaler) may leave it unused.
  const kernel = stored.width !== fitted.width || stored.height !== fitted.height ? await resizeKernel() : undefined;
  let output: OrientedRaster | undefined;
  let inner: (RowSink & { end?(): void }) | undefined;
  const sink: RowSink = {
    start(layout: RowLayout) {
      const placed = orientedRaster(orientation, fitted, layout.bottomUp, rasterBuffer);
      output = placed;
      const direct = layout.width === fitted.width && layout.height === fitted.height;
      if (direct) {
        inner = { start() {}, write: (pixels, rows) => placed.write(pixels, rows) };
      } else {
        // The header promised one size and the pixel data holds another: the file contradicts itself.
        if (!kernel)
          throw new MediaError(
            'E_CORRUPT',
            `The image data holds ${layout.width}×${layout.height} pixels, not the ${stored.width}×${stored.height} its header declares: the file is damaged. Re-export it.`,
          );
        inner = resizingSink(kernel, fitted, (rows, count) => placed.write(rows, count));
      }
      inner.start(layout);
    },
    write(pixels, rows) {
      if (!inner) throw new Error('the decoder wrote rows before it started');
      deadline.check('Decoding the image');
      inner.write(pixels, rows);
    },
  };
  const result = await decode({ bytes, cover: fitted, sink });
  inner?.end?.();
  kernel?.unused();
  if (!output) throw new Error('the decoder delivered no rows');
  return { ...result, raster: output.raster() };
}
