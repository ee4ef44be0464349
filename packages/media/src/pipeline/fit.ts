import { MediaError } from '../errors.js';
import type { Encoding, OutputType } from '../formats/format.js';
import { resizeRaster } from '../raster/resize.js';
import type { Deadline } from '../runtime/deadline.js';
import type { ProcessStep, Raster, SendableImageType } from '../types.js';
import { encodeRaster, encodeRasterWithin } from './encode.js';
import { lossyFallback } from './output-encoding.js';

/** The quality steps tried, after the first lossy encode (output-encoding.ts), when the bytes do not fit. */
const QUALITY_STEPS = [70, 55, 40];
/** The quality smaller sizes are encoded at, when the encoding is lossy. */
export const SCALE_QUALITY = QUALITY_STEPS[0]!;
/** How many times over maxBytes a lossy encode may be for lower qualities to be worth trying. */
const QUALITY_REACH = 10;
/** While no size fits, each one tried keeps at most this share of the sides of the one before. */
const SCALE_STEP = 0.75;
const SMALLEST_EDGE = 16;
/** The size search aims this far under maxBytes: bytes do not follow the size exactly. */
const BYTES_AIM = 0.97;
/** Once a size fits, the search stops when the smallest size known not to fit is this close above it. */
const SCALE_PRECISION = 1.05;
/** ...or after this many more encodes. */
const MAX_REFINES = 4;

export interface FitRequest {
  raster: Raster;
  hasAlpha: boolean;
  /** The encoding that keeps the source's character (JPEG stays JPEG, screenshots stay lossless). */
  preferred: Encoding;
  maxBytes: number;
  accepts: readonly SendableImageType[];
  /**
   * Bytes to leave free in an output of each type, for what is added after the fit (the source's colour
   * profile): the encoded image is fitted to maxBytes minus these. None when absent.
   */
  reserve?: (type: OutputType) => number;
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
 * then the largest smaller size that fits, within 5% on a side (fitSize: at most 4 encodes past the first
 * size that fits), each resized from `raster` itself: the image is never decoded again. Never returns
 * anything over the limit: if nothing fits, `E_TOO_LARGE`.
 */
export async function fitWithinLimits({
  raster,
  hasAlpha,
  preferred,
  maxBytes,
  accepts,
  reserve = () => 0,
  deadline,
}: FitRequest): Promise<Fitted> {
  const steps: ProcessStep[] = [];
  // What an encoding may take: maxBytes, less what is kept free for the profile added afterwards.
  const budget = (encoding: Encoding) => maxBytes - reserve(encoding.type);
  // Every pixel is opaque unless the decoder saw otherwise: encoders then skip their own alpha pass.
  const encode = (source: Raster, encoding: Encoding) => {
    deadline?.check('Encoding the image');
    return encodeRaster(source, encoding, hasAlpha);
  };
  const lossy = lossyFallback(preferred, hasAlpha, accepts);
  let data: Uint8Array;
  if (lossy && lossy.type !== preferred.type) {
    // Another format follows, so the preferred encoding is wanted only if it fits: a PNG is given up as
    // soon as it passes maxBytes, never finished nor copied out (a 2000×1500 RGBA photo whose PNG is
    // 4.9 MB: its instance takes 5.0 MB of WASM memory instead of 6.0, and no 4.9 MB copy lands in JS).
    deadline?.check('Encoding the image');
    const fitted = await encodeRasterWithin(raster, preferred, hasAlpha, budget(preferred));
    if (fitted) return { data: fitted, mediaType: preferred.type, width: raster.width, height: raster.height, steps };
    steps.push('converted');
    data = await encode(raster, lossy);
    if (data.byteLength <= budget(lossy))
      return { data, mediaType: lossy.type, width: raster.width, height: raster.height, steps };
  } else {
    data = await encode(raster, preferred);
    if (data.byteLength <= budget(preferred))
      return { data, mediaType: preferred.type, width: raster.width, height: raster.height, steps };
  }

  let atScaleQuality: number | undefined; // the bytes of the full size at SCALE_QUALITY, if tried
  if (lossy) {
    // Quality 40 makes a file up to ~9x smaller than 85 (a noisy photo; flat drawings far less): further
    // out, only a smaller size can fit.
    const room = budget(lossy);
    if (data.byteLength <= room * QUALITY_REACH) steps.push('quality-reduced');
    for (const quality of QUALITY_STEPS) {
      if (quality >= lossy.quality || data.byteLength > room * QUALITY_REACH) continue;
      data = await encode(raster, { ...lossy, quality });
      if (data.byteLength <= room)
        return { data, mediaType: lossy.type, width: raster.width, height: raster.height, steps };
      if (quality === SCALE_QUALITY) atScaleQuality = data.byteLength;
    }
  }

  // Smaller sizes are encoded at SCALE_QUALITY; the search starts from the full size in that quality when
  // it was tried, else from the last full-size encode.
  const encoding: Encoding = lossy ? { ...lossy, quality: SCALE_QUALITY } : preferred;
  steps.push('scaled-for-bytes');
  const full = { bytes: atScaleQuality ?? data.byteLength, same: !lossy || atScaleQuality !== undefined };
  const fitted = await fitSize(raster, full, budget(encoding), async (width, height) =>
    encode(await resizeRaster(raster, width, height, hasAlpha), encoding),
  );
  if (fitted) return { ...fitted, mediaType: encoding.type, steps };
  throw new MediaError(
    'E_TOO_LARGE',
    `The image cannot be made to fit ${maxBytes} bytes, even at ${SMALLEST_EDGE} px in ${encoding.type}. Raise maxBytes or send a smaller image.`,
    { maxBytes },
  );
}

/** A size tried by the search: its longest side, its encoded bytes, and whether in the search's encoding. */
interface Tried {
  edge: number;
  bytes: number;
  same: boolean;
}

/**
 * The largest size of `raster` (within SCALE_PRECISION) whose encoding by `encodeAt` fits `maxBytes`, each
 * size resized from `raster` itself; undefined if not even SMALLEST_EDGE px fits. `full` is the full size,
 * encoded (`same`: in the search's encoding, else at another quality), which did not fit.
 *
 * Bytes are modelled as edge^k, k measured through two sizes in the search's encoding (2 without them; it
 * differs by encoder and picture: a smaller photo has more detail per pixel, a PNG's filters and a JPEG's
 * blocks do not shrink with it). While no size fits, each aims just under maxBytes along that curve, at
 * most SCALE_STEP of the size before. Once one fits, the next
 * size is the curve's answer between the largest that fits (b) and the smallest that does not (t), kept
 * between b×P and t/P (P = SCALE_PRECISION): either outcome then narrows t/b by P at least, and when
 * t ≤ b×P² it ends the search. It ends when t ≤ b×P, or after MAX_REFINES encodes past the first fit.
 * Encodes: the shrinking ones (1–3 for photos; at most 17 from 2,000 px to 16) plus at most MAX_REFINES.
 * Before this search (one jump along bytes^½ × 0.9, then steps of 0.75 until one fits, never back up) a
 * 2000×1500 photo fitted to 100 KB as PNG came out 204×153 px (56 KB); now 262×197 (99 KB).
 */
async function fitSize(
  raster: Raster,
  full: { bytes: number; same: boolean },
  maxBytes: number,
  encodeAt: (width: number, height: number) => Promise<Uint8Array>,
): Promise<{ data: Uint8Array; width: number; height: number } | undefined> {
  const longest = Math.max(raster.width, raster.height);
  const smallest = Math.min(longest, SMALLEST_EDGE);
  const target = maxBytes * BYTES_AIM;
  let tooBig: Tried = { edge: longest, ...full };
  let before: Tried | undefined; // the size tried before tooBig, while none fits
  let best: (Tried & { data: Uint8Array; width: number; height: number }) | undefined;
  for (let refines = 0; ; ) {
    let edge: number;
    if (!best) {
      const k = before?.same && tooBig.same ? exponent(before, tooBig) : 2;
      edge = Math.round(tooBig.edge * Math.min(SCALE_STEP, (target / tooBig.bytes) ** (1 / k)));
      edge = Math.max(edge, smallest);
      if (edge >= tooBig.edge) return undefined;
    } else {
      if (tooBig.edge <= Math.ceil(best.edge * SCALE_PRECISION) || refines >= MAX_REFINES) return best;
      refines++;
      const k = tooBig.same ? exponent(best, tooBig) : 2;
      const guess = best.edge * (target / best.bytes) ** (1 / k);
      const [up, down] = [best.edge * SCALE_PRECISION, tooBig.edge / SCALE_PRECISION];
      edge = Math.round(Math.min(Math.max(guess, Math.min(up, down)), Math.max(up, down)));
      edge = Math.min(Math.max(edge, best.edge + 1), tooBig.edge - 1);
    }
    const scale = edge / longest;
    const width = Math.max(1, Math.round(raster.width * scale));
    const height = Math.max(1, Math.round(raster.height * scale));
    const data = await encodeAt(width, height);
    if (data.byteLength <= maxBytes) best = { edge, bytes: data.byteLength, same: true, data, width, height };
    else {
      if (!best) before = tooBig;
      tooBig = { edge, bytes: data.byteLength, same: true };
    }
  }
}

/** k in bytes ∝ edge^k through two sizes, kept within 0.5–3 (2 when they say nothing). */
function exponent(a: Tried, b: Tried): number {
  const k = Math.log(a.bytes / b.bytes) / Math.log(a.edge / b.edge);
  return Number.isFinite(k) && k > 0 ? Math.min(3, Math.max(0.5, k)) : 2;
}
