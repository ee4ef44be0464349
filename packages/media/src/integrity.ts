import type { FormatIntegrity } from './formats/format.js';
import type { IntegrityProblem } from './formats/integrity-problem.js';
import { formatOf } from './formats/registry.js';
import type { SendableImageType } from './types.js';

export type { IntegrityProblem } from './formats/integrity-problem.js';

/**
 * The cheap checks every file gets, before anything else is decided: what strict decoders (libpng,
 * libjpeg, libwebp, giflib) verify without decoding pixels (chunk CRCs, marker and block structure,
 * container sizes). Under a millisecond for a 200 KB screenshot.
 */
export function checkIntegrity(bytes: Uint8Array, type: SendableImageType): IntegrityProblem | undefined {
  return integrityOf(type).check(bytes);
}

/**
 * The full check, for a file that passed `checkIntegrity` and is about to be sent untouched: the whole
 * file read the way the strictest reader of its format reads it, image data included (PNG: libpng, every
 * row through the zlib stream's Adler-32; JPEG: libjpeg as `djpeg -strict`, all entropy-coded data; WebP:
 * libwebp's decode; GIF: the LZW data). Costs about a decode, so it runs only when nothing else would
 * decode the file: a file that is resized or converted is read by its decoder anyway.
 */
export async function verifyIntegrity(
  bytes: Uint8Array,
  type: SendableImageType,
): Promise<IntegrityProblem | undefined> {
  return integrityOf(type).verify(bytes);
}

/** Every type a route takes as it is has its checks in its record (formats/<name>/integrity.ts). */
function integrityOf(type: SendableImageType): FormatIntegrity {
  const format = formatOf(type);
  if (format.kind !== 'raster' || !format.integrity) throw new Error(`no integrity check for ${type}`);
  return format.integrity;
}
