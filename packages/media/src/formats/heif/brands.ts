// Which HEIF-family type a file is, from its `ftyp` box: the major brand decides, then the compatible
// brands, AVIF before HEIC (AVIF files often list mif1 too), HEIF (the plain image brands) last.
import type { HeifInfo } from '../../types.js';
import { asciiAt } from '../byte-reader.js';

const HEIC_BRANDS = new Set(['heic', 'heix', 'hevc', 'heim', 'heis', 'hevm', 'hevs', 'hevx']);
const HEIF_BRANDS = new Set(['mif1', 'msf1', 'mif2', 'mif3']);
const AVIF_BRANDS = new Set(['avif', 'avis']);

/** The type an ISO BMFF file's brands name, or undefined when it has no `ftyp` box naming an image brand. */
export function isoBmffImageType(bytes: Uint8Array): HeifInfo['mediaType'] | undefined {
  if (bytes.length < 12 || asciiAt(bytes, 4, 4) !== 'ftyp') return undefined;
  const boxSize = ((bytes[0]! << 24) >>> 0) + (bytes[1]! << 16) + (bytes[2]! << 8) + bytes[3]!;
  const boxEnd = Math.min(bytes.length, Math.max(boxSize, 16), 4096);
  const major = asciiAt(bytes, 8, 4);
  const compatible: string[] = [];
  for (let offset = 16; offset + 4 <= boxEnd; offset += 4) compatible.push(asciiAt(bytes, offset, 4));

  if (AVIF_BRANDS.has(major)) return 'image/avif';
  // The compact form (a `mini` box for the meta box): `mif3` says only that; the minor version names the codec brand.
  if (major === 'mif3') {
    const codec = asciiAt(bytes, 12, 4);
    if (AVIF_BRANDS.has(codec)) return 'image/avif';
    if (HEIC_BRANDS.has(codec)) return 'image/heic';
  }
  if (HEIC_BRANDS.has(major)) return 'image/heic';
  if (compatible.some((brand) => AVIF_BRANDS.has(brand))) return 'image/avif';
  if (compatible.some((brand) => HEIC_BRANDS.has(brand))) return 'image/heic';
  if (HEIF_BRANDS.has(major) || compatible.some((brand) => HEIF_BRANDS.has(brand))) return 'image/heif';
  return undefined;
}
