import { DEFAULT_MAX_INPUT_PIXELS } from '../../presets/limits.js';
import { registeredDecoder } from '../registered-decoders.js';
import { probeIsoBmff } from './probe.js';
import { type HeifTopLevel, heifTopLevel } from './boxes.js';
import { readHeifImageItems } from './image-items.js';
import { heifDataPresent, readHeifLayout } from './layout.js';
import { isMediaError } from '../../errors.js';
import { libheifRefusal } from './libheif-rules.js';
import type { IntegrityProblem } from '../integrity-problem.js';

/**
 * The ISO BMFF structure of a HEIC/HEIF as libheif reads it before decoding: the top-level boxes tile the
 * file (ftyp first, one meta box), the item graph reads, and every item the iloc box locates has all its
 * data inside the file (or inside the idat box). The coded HEVC data is not parsed: that takes a decoder.
 * Missing or unreadable structure is fatal (no reader can show the image); bytes after the last box are
 * not, since libheif ignores them and a re-encode drops them. Nor is what libheif refuses beyond that
 * (libheif-rules.ts: the major brand, its image list, grid rules): the primary image may still
 * decode, and a converted copy is sent.
 */
export function checkHeifIntegrity(bytes: Uint8Array, format: 'HEIC' | 'HEIF'): IntegrityProblem | undefined {
  let topLevel: HeifTopLevel;
  try {
    topLevel = heifTopLevel(bytes, format);
  } catch (cause) {
    if (isMediaError(cause)) return fatal(`its boxes cannot be read (${cause.message})`);
    throw cause;
  }
  const { types, tail, tailProblem } = topLevel;
  if (types[0] !== 'ftyp') return fatal('it does not start with an ftyp box');
  const metas = types.filter((type) => type === 'meta').length;
  if (metas === 0) return fatal('it has no meta box');
  let layout: ReturnType<typeof readHeifLayout>;
  try {
    layout = readHeifLayout(bytes, format);
  } catch (cause) {
    if (isMediaError(cause)) return fatal(`its item graph cannot be read (${cause.message})`);
    throw cause;
  }
  // Item data must lie in the boxes; past them, the file was cut short (or its iloc box is wrong).
  const missing = layout.locations.find((item) => !heifDataPresent(layout, item, tail ?? bytes.length));
  if (missing)
    return fatal(
      tailProblem ?? `the data of item ${missing.id} lies outside the file (it is cut short or its iloc box is wrong)`,
    );
  if (tail !== undefined) return { fatal: false, problem: `${bytes.length - tail} stray bytes follow the last box` };
  // libheif and this reader take the first meta box; another reader might take the last.
  if (metas > 1) return { fatal: false, problem: `it has ${metas} meta boxes` };
  let refusal: string | undefined;
  try {
    refusal = libheifRefusal(bytes, readHeifImageItems(bytes, format));
  } catch (cause) {
    if (!isMediaError(cause)) throw cause;
    refusal = `an item's properties do not read (${cause.message})`;
  }
  return refusal === undefined ? undefined : { fatal: false, problem: refusal };
}

function fatal(problem: string): IntegrityProblem {
  return { fatal: true, problem };
}

/**
 * With a decoder registered (@glimpse/heif), the image decoded as heif-convert decodes it; without one, the
 * box structure (`checkHeifIntegrity`) is all the core can check.
 */
export async function verifyHeifIntegrity(
  bytes: Uint8Array,
  mediaType: 'image/heic' | 'image/heif',
  format: 'HEIC' | 'HEIF',
): Promise<IntegrityProblem | undefined> {
  const decoder = registeredDecoder(mediaType);
  if (!decoder) return undefined;
  try {
    const { info } = probeIsoBmff(mediaType, format, bytes);
    await decoder.decode({ bytes, info, maxInputPixels: DEFAULT_MAX_INPUT_PIXELS, sink: { start() {}, write() {} } });
    return undefined;
  } catch (error) {
    if (isMediaError(error) && error.code === 'E_CORRUPT')
      return { fatal: true, problem: `${decoder.name} cannot decode it (${error.message})` };
    throw error;
  }
}
