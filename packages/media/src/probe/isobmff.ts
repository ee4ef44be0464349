import { readHeifLayout } from '../containers/heif-items.js';
import type { HeifInfo, MediaType } from '../types.js';

const FORMAT_NAMES: Partial<Record<MediaType, string>> = {
  'image/heic': 'HEIC',
  'image/heif': 'HEIF',
  'image/avif': 'AVIF',
};

/**
 * HEIC/HEIF/AVIF header facts from the item graph: the primary image's size as shown before turning
 * (its clean aperture, or the whole grid), its irot/imir as an EXIF orientation, alpha and bit depth.
 */
export function probeIsoBmff(mediaType: HeifInfo['mediaType'], bytes: Uint8Array): HeifInfo {
  const layout = readHeifLayout(bytes, FORMAT_NAMES[mediaType] ?? 'HEIF');
  const size = layout.crop ?? layout;
  return {
    mediaType,
    bytes: bytes.length,
    width: size.width,
    height: size.height,
    orientation: layout.orientation,
    frames: 1,
    hasAlpha: layout.hasAlpha,
    ...(layout.bitDepth !== undefined && { bitDepth: layout.bitDepth }),
  };
}
