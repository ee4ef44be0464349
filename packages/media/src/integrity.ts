import { checkJpegIntegrity } from './integrity/jpeg.js';
import type { IntegrityProblem } from './integrity/integrity-problem.js';
import { checkPngIntegrity } from './integrity/png.js';
import { checkWebpIntegrity } from './integrity/webp.js';
import { checkHeifIntegrity } from './integrity/heif.js';
import type { SendableImageType } from './types.js';

export type { IntegrityProblem } from './integrity/integrity-problem.js';

/**
 * The cheap checks a file must pass before it is sent untouched: what strict decoders (libpng, libjpeg,
 * libwebp) verify without decoding pixels. GIF has no checksums or sizes beyond what `probe` walks.
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
      return undefined;
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
