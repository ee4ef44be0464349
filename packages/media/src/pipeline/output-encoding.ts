// The one place the output's encoding is chosen, for every job that writes an image (a decoded raster, a
// rendered SVG, a drawn PDF page), and the lossy encoding a fit falls back to when it is over maxBytes.
import type { Encoding } from '../formats/format.js';
import type { MediaType, SendableImageType } from '../types.js';

/** Quality of a first lossy encode; the fit steps down from it when the bytes do not fit (fit.ts). */
export const FIRST_QUALITY = 85;

const PNG: Encoding = { type: 'image/png', quality: 100, lossless: true };
const JPEG: Encoding = { type: 'image/jpeg', quality: FIRST_QUALITY, lossless: false };
const LOSSY_WEBP: Encoding = { type: 'image/webp', quality: FIRST_QUALITY, lossless: false };

/** What the choice looks at: the source's own type, if it had one, and what its decoder or renderer saw. */
export interface OutputPixels {
  source?: MediaType;
  /** The pixels are exact (a lossless source, an SVG, a PDF page of text and drawings): they stay so. */
  lossless: boolean;
  hasAlpha: boolean;
}

/**
 * Same codec as the source where the route takes it (JPEG stays JPEG, lossy WebP stays WebP); otherwise
 * PNG where there is alpha or the pixels are exact, JPEG for the rest (a photo, a scanned page). A lossless
 * WebP is re-encoded as PNG, not lossless WebP: PNG streams in bands while libwebp's lossless encoder takes
 * the whole image, and it is 10–16× faster for 1.5–2× the bytes (2000 px, load ~14: a screenshot 0.96 s /
 * 538 KB against 10.3 s / 266 KB, a photo 2.5 s / 3.69 MB against 40.8 s / 2.39 MB); a Worker's isolate grew
 * 116 MB more with the WebP encoder.
 */
export function chooseEncoding(pixels: OutputPixels, accepts: readonly SendableImageType[]): Encoding {
  if (pixels.source === 'image/jpeg' && accepts.includes('image/jpeg')) return JPEG;
  if (pixels.lossless) return PNG;
  if (pixels.source === 'image/webp' && accepts.includes('image/webp')) return LOSSY_WEBP;
  return pixels.hasAlpha || !accepts.includes('image/jpeg') ? PNG : JPEG;
}

/**
 * The lossy encoding to fall back to when `preferred` is over maxBytes: itself when lossy; an opaque PNG
 * may become JPEG, one with alpha WebP (alpha is never flattened), or none (alpha without WebP stays PNG).
 */
export function lossyFallback(
  preferred: Encoding,
  hasAlpha: boolean,
  accepts: readonly SendableImageType[],
): Encoding | undefined {
  if (preferred.type !== 'image/png' && !preferred.lossless) return preferred;
  if (hasAlpha) return accepts.includes('image/webp') ? LOSSY_WEBP : undefined;
  return JPEG;
}
