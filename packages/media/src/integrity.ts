import { checkGifIntegrity } from './formats/gif/integrity.js';
import type { IntegrityProblem } from './formats/integrity-problem.js';
import { checkJpegIntegrity } from './formats/jpeg/integrity.js';
import { checkPngIntegrity } from './formats/png/integrity.js';
import { readsWithoutComplaint } from './pipeline/strict-read.js';
import { checkWebpIntegrity } from './formats/webp/integrity.js';
import { checkHeifIntegrity } from './formats/heif/integrity.js';
import type { SendableImageType } from './types.js';

export type { IntegrityProblem } from './formats/integrity-problem.js';

/**
 * The cheap checks every file gets, before anything else is decided: what strict decoders (libpng,
 * libjpeg, libwebp, giflib) verify without decoding pixels (chunk CRCs, marker and block structure,
 * container sizes). Under a millisecond for a 200 KB screenshot.
 */
export function checkIntegrity(bytes: Uint8Array, type: SendableImageType): IntegrityProblem | undefined {
  switch (type) {
    case 'image/png':
      return checkPngIntegrity(bytes);
    case 'image/jpeg':
      return checkJpegIntegrity(bytes);
    case 'image/webp':
      return checkWebpIntegrity(bytes);
    case 'image/gif':
      return checkGifIntegrity(bytes);
    case 'image/heic':
      return checkHeifIntegrity(bytes, 'HEIC');
    case 'image/heif':
      return checkHeifIntegrity(bytes, 'HEIF');
    default: {
      const unreachable: never = type;
      throw new Error(`no integrity check for ${String(unreachable)}`);
    }
  }
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
  return readsWithoutComplaint(bytes, type);
}
