import { registeredDecoder } from '../formats/registered-decoders.js';
import { isMediaError } from '../errors.js';
import { strictRead } from '../runtime/kernel-instance.js';
import { decodeWebpRows } from '../formats/webp/decoder-kernel.js';
import { DEFAULT_MAX_INPUT_PIXELS } from '../presets/limits.js';
import { probe } from '../probe.js';
import type { SendableImageType } from '../types.js';
import { checkGifImageData } from '../formats/gif/integrity.js';
import type { IntegrityProblem } from '../formats/integrity-problem.js';

/**
 * Reads the whole file, image data included, as the strictest reader of its format does, and says what
 * it refused (fatal: nothing can be shown) or complained about (repairable: it reads, with a warning).
 * PNG and JPEG: libpng and libjpeg themselves (wasm/png, wasm/jpeg `verify`), which is what pngcheck and
 * `djpeg -strict` run. WebP: libwebp's decode, as dwebp. GIF: the LZW data, as giflib decodes it.
 */
export async function readsWithoutComplaint(
  bytes: Uint8Array,
  type: SendableImageType,
): Promise<IntegrityProblem | undefined> {
  switch (type) {
    case 'image/png':
    case 'image/jpeg': {
      const library = type === 'image/png' ? 'libpng' : 'libjpeg';
      const finding = await strictRead(type === 'image/png' ? 'png' : 'jpeg', bytes);
      if (!finding) return undefined;
      return 'error' in finding
        ? { fatal: true, problem: `${library} cannot read it (${finding.error})` }
        : { fatal: false, problem: `${library} reads it only with a warning (${finding.warning})` };
    }
    case 'image/webp':
      try {
        await decodeWebpRows(bytes, undefined, { start() {}, write() {} });
        return undefined;
      } catch (error) {
        // The decoder's message names libwebp's status in parentheses: that is the reason to quote.
        if (isMediaError(error) && error.code === 'E_CORRUPT')
          return {
            fatal: true,
            problem: `libwebp cannot decode it (${/\((.+?)\)/.exec(error.message)?.[1] ?? 'damaged data'})`,
          };
        throw error;
      }
    case 'image/gif':
      return checkGifImageData(bytes);
    case 'image/heic':
    case 'image/heif': {
      // HEVC decoding is the optional LGPL package's: with it, the image is decoded as heif-convert does;
      // without it, the box structure (integrity/heif.ts) is all the core can check.
      const decoder = registeredDecoder(type);
      if (!decoder) return undefined;
      try {
        const info = await probe(bytes);
        await decoder.decode({
          bytes,
          info,
          maxInputPixels: DEFAULT_MAX_INPUT_PIXELS,
          sink: { start() {}, write() {} },
        });
        return undefined;
      } catch (error) {
        if (isMediaError(error) && error.code === 'E_CORRUPT')
          return { fatal: true, problem: `${decoder.name} cannot decode it (${error.message})` };
        throw error;
      }
    }
    default: {
      const unreachable: never = type;
      throw new Error(`no strict reader for ${String(unreachable)}`);
    }
  }
}
