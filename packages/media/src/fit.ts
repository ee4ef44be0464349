import { encodeRaster, type Encoding, type OutputType } from './encode.js';
import type { Deadline } from './deadline.js';
import { MediaError } from './errors.js';
import { resizeRaster } from './resize.js';
import type { ProcessStep, Raster, SendableImageType } from './types.js';

/** Quality for a first lossy encode, then the steps tried when the bytes do not fit. */
export const FIRST_QUALITY = 85;
const QUALITY_STEPS = [70, 55, 40];
/** How many times over maxBytes a lossy encode may be for lower qualities to be worth trying. */
const QUALITY_REACH = 10;
/** Each scale step keeps this share of the sides (about half the pixels after two steps). */
const SCALE_STEP = 0.75;
const SMALLEST_EDGE = 16;
/** How far below the bytes' square root a scale jump aims: bytes fall a little slower than pixels. */
const BYTES_GUESS_MARGIN = 0.9;

export interface FitRequest {
  raster: Raster;
  hasAlpha: boolean;
  /** The encoding that keeps the source's character (JPEG stays JPEG, screenshots stay lossless). */
  preferred: Encoding;
  maxBytes: number;
  accepts: readonly SendableImageType[];
  /** Checked before each encode attempt after the first. */
  deadline?: Deadline;
}

export interface Fitted {
  data: Uint8Array;
  mediaType: OutputType;
  width: number;
  height: number;
  steps: ProcessStep[];
}

/**
 * Encodes `raster` so the result is at most `maxBytes`: first the preferred encoding; then a lossy one
 * (an opaque PNG may become JPEG, one with alpha WebP — alpha is never flattened); then lower qualities;
 * then smaller sizes, each resized from `raster` itself: the image is never decoded again. Never returns
 * anything over the limit: if nothing fits, `E_TOO_LARGE`.
 */
export async function fitWithinLimits({ raster, hasAlpha, preferred, maxBytes, accepts, deadline }: FitRequest): Promise<Fitted> {
  const steps: ProcessStep[] = [];
  // Every pixel is opaque unless the decoder saw otherwise: encoders then skip their own alpha pass.
  const encode = (source: Raster, encoding: Encoding) => {
    deadline?.check('Encoding the image');
    return encodeRaster(source, encoding, hasAlpha);
  };
  let data = await encode(raster, preferred);
  if (data.byteLength <= maxBytes) return { data, mediaType: preferred.type, width: raster.width, height: raster.height, steps };

  const lossy = lossyEncoding(preferred, hasAlpha, accepts);
  if (lossy) {
    if (lossy.type !== preferred.type) {
      steps.push('converted');
      data = await encode(raster, lossy);
      if (data.byteLength <= maxBytes) return { data, mediaType: lossy.type, width: raster.width, height: raster.height, steps };
    }
    // Quality 40 makes a file up to ~9x smaller than 85 (a noisy photo; flat drawings far less): further
    // out, only a smaller size can fit.
    if (data.byteLength <= maxBytes * QUALITY_REACH) steps.push('quality-reduced');
    for (const quality of QUALITY_STEPS) {
      if (quality >= lossy.quality || data.byteLength > maxBytes * QUALITY_REACH) continue;
      data = await encode(raster, { ...lossy, quality });
      if (data.byteLength <= maxBytes) return { data, mediaType: lossy.type, width: raster.width, height: raster.height, steps };
    }
  }

  const encoding: Encoding = lossy ? { ...lossy, quality: QUALITY_STEPS[0]! } : preferred;
  steps.push('scaled-for-bytes');
  const smallestScale = Math.min(1, SMALLEST_EDGE / Math.max(raster.width, raster.height));
  let scale = 1;
  while (scale > smallestScale) {
    // Bytes shrink about as pixels do: jump near the size that fits rather than a quarter at a time (a
    // 2000x2000 render squeezed into 1,500 bytes took eleven resizes and encodes, ~10 s).
    scale *= Math.min(SCALE_STEP, BYTES_GUESS_MARGIN * Math.sqrt(maxBytes / data.byteLength));
    scale = Math.max(scale, smallestScale);
    const width = Math.max(1, Math.round(raster.width * scale));
    const height = Math.max(1, Math.round(raster.height * scale));
    const smaller = await resizeRaster(raster, width, height, hasAlpha);
    data = await encode(smaller, encoding);
    if (data.byteLength <= maxBytes) return { data, mediaType: encoding.type, width, height, steps };
  }
  throw new MediaError(
    'E_TOO_LARGE',
    `The image cannot be made to fit ${maxBytes} bytes, even at ${SMALLEST_EDGE} px in ${encoding.type}. Raise maxBytes or send a smaller image.`,
    { maxBytes },
  );
}

/** The lossy encoding to fall back to, or undefined when none is allowed (alpha without WebP stays PNG). */
function lossyEncoding(preferred: Encoding, hasAlpha: boolean, accepts: readonly SendableImageType[]): Encoding | undefined {
  if (preferred.type !== 'image/png' && !preferred.lossless) return preferred;
  if (hasAlpha) return accepts.includes('image/webp') ? { type: 'image/webp', quality: FIRST_QUALITY, lossless: false } : undefined;
  return { type: 'image/jpeg', quality: FIRST_QUALITY, lossless: false };
}
