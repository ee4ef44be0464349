// Decode, resize and orient in one pass: the decoder's rows stream through the resizer (when the size
// changes) straight into their upright place in the output raster. The output, at most the fitted
// size, is the only image that exists whole; the decoder and resizer hold bands and rings of rows.
import type { DecodeRequest, DecodeResult, RowLayout, RowSink, Size } from '../raster/contract.js';
import { resizeKernel, resizingSink } from '../raster/resize-kernel.js';
import { orientedRaster, type OrientedRaster } from '../raster/orient.js';
import { rasterBuffer, releaseRasterBuffer } from '../raster/raster-buffers.js';
import type { Orientation, Raster, Region } from '../types.js';
import { NO_DEADLINE, type Deadline } from '../runtime/deadline.js';
import { MediaError } from '../errors.js';
import { scaledRegion } from './region.js';

/** A decode request without the facts and the pixel budget, which the caller binds to its format's decoder. */
export type DecodeJob = Pick<DecodeRequest<unknown>, 'bytes' | 'cover' | 'sink' | 'crop'>;

export interface DecodeToFitRequest {
  /** The format's decoder, bound to its probe facts. */
  decode: (job: DecodeJob) => Promise<DecodeResult>;
  bytes: Uint8Array;
  /** The image's size as stored, from its header. */
  stored: Size;
  /** The size to resize to, as stored: turned upright, it is the output's size (of `crop`, when given). */
  fitted: Size;
  /** Only this rectangle of the stored pixels is kept, then resized to `fitted`; the rows past it are not decoded where the decoder can stop. */
  crop?: Region;
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
  crop,
}: DecodeToFitRequest): Promise<DecodedToFit> {
  // The resize kernel is made before decoding starts, so rows can flow through it synchronously; a
  // decoder that shrinks while decoding (JPEG's DCT scaling, libwebp's rescaler) may leave it unused.
  const kernel =
    crop !== undefined || stored.width !== fitted.width || stored.height !== fitted.height
      ? await resizeKernel()
      : undefined;
  let output: OrientedRaster | undefined;
  // The raster's buffer, taken when the decoder starts its rows: given back if the decode then fails (a
  // damaged HEIC tile or TIFF strip midway), or each such request drops a buffer of the fitted size (12 MB
  // at 2000 px) for the runtime to collect late.
  let taken: Uint8Array | undefined;
  const allocate = (bytes: number) => (taken = rasterBuffer(bytes));
  let inner: (RowSink & { end?(): void }) | undefined;
  const resizeSink: RowSink = {
    start(layout: RowLayout) {
      const placed = orientedRaster(orientation, fitted, layout.bottomUp, allocate);
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
  // With a crop, the decoder is asked for rows that still cover `fitted` across the kept part alone.
  const cover =
    crop === undefined
      ? fitted
      : {
          width: Math.min(stored.width, Math.ceil((stored.width * fitted.width) / crop.width)),
          height: Math.min(stored.height, Math.ceil((stored.height * fitted.height) / crop.height)),
        };
  const sink = crop === undefined ? resizeSink : croppingSink(resizeSink, stored, crop, deadline);
  try {
    const result = await decode({ bytes, cover, sink, ...(crop !== undefined && { crop }) });
    inner?.end?.();
    if (!output) throw new Error('the decoder delivered no rows');
    return { ...result, raster: output.raster() };
  } catch (error) {
    if (taken) releaseRasterBuffer(taken);
    throw error;
  } finally {
    kernel?.unused(); // a decode that failed gives the resize instance back too (an isolate keeps what it drops)
  }
}

/**
 * Passes on only the rows and columns of `crop` (in stored pixels), scaled to whatever size the decoder
 * delivers (JPEG's DCT scaling delivers fewer pixels than stored): the cut comes from the decode, before any
 * resize, so nothing outside the region blurs into it. A decoder that delivers only a window of its image
 * (the layout's `part`) is cut the same way, the window's offset taken off. Says `enough` once the region's
 * last row went by.
 */
function croppingSink(next: RowSink, stored: Size, crop: Region, deadline: Deadline): RowSink {
  let layout: RowLayout | undefined;
  let x0 = 0;
  let x1 = 0;
  let y0 = 0;
  let y1 = 0;
  let received = 0;
  let band: Uint8Array | undefined;
  return {
    start(delivered) {
      layout = delivered;
      const { part, ...rest } = delivered;
      const whole = part?.whole ?? delivered;
      const kept = scaledRegion(crop, stored, whole);
      const [dx, dy] = part === undefined ? [0, 0] : [part.x, part.y];
      if (
        part !== undefined &&
        (delivered.bottomUp === true ||
          kept.x < dx ||
          kept.y < dy ||
          kept.x + kept.width > dx + delivered.width ||
          kept.y + kept.height > dy + delivered.height)
      )
        throw new Error('the decoder delivered a window that does not hold the region');
      x0 = kept.x - dx;
      x1 = x0 + kept.width;
      // Bottom-up rows arrive last row first: the kept band is counted from the bottom then.
      [y0, y1] = delivered.bottomUp
        ? [delivered.height - kept.y - kept.height, delivered.height - kept.y]
        : [kept.y - dy, kept.y - dy + kept.height];
      next.start({ ...rest, width: x1 - x0, height: y1 - y0 });
    },
    write(pixels, rows) {
      if (!layout) throw new Error('the decoder wrote rows before it started');
      deadline.check('Decoding the image'); // rows above the region are decoded too, and take time
      const rowBytes = layout.width * 4;
      const from = Math.max(received, y0);
      const to = Math.min(received + rows, y1);
      if (to > from) {
        const keptBytes = (x1 - x0) * 4;
        const count = to - from;
        if (x0 === 0 && x1 === layout.width) {
          next.write(pixels.subarray((from - received) * rowBytes, (to - received) * rowBytes), count);
        } else {
          if (!band || band.byteLength < count * keptBytes) band = new Uint8Array(count * keptBytes);
          for (let r = 0; r < count; r++) {
            const start = (from - received + r) * rowBytes + x0 * 4;
            band.set(pixels.subarray(start, start + keptBytes), r * keptBytes);
          }
          next.write(band.subarray(0, count * keptBytes), count);
        }
      }
      received += rows;
    },
    enough: () => received >= y1,
  };
}
