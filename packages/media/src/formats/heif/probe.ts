import { heifSequenceFrames, heifTopLevel } from './boxes.js';
import { readHeifLayout } from './layout.js';
import { MediaError } from '../../errors.js';
import { takersSentence } from '../../presets/takers.js';
import type { HeifInfo } from '../../types.js';
import type { Probed } from '../format.js';

/**
 * HEIC/HEIF/AVIF header facts from the item graph: the primary image's size as shown before turning
 * (its clean aperture, or the whole grid), its irot/imir as an EXIF orientation, alpha and bit depth; the
 * frames of an image sequence beside it (an animation whose still first frame is what glimpse reads); and
 * the colour profile of the primary image, from the same read. `format` names the type in messages ("AVIF").
 */
export function probeIsoBmff(mediaType: HeifInfo['mediaType'], format: string, bytes: Uint8Array): Probed<HeifInfo> {
  assertStillImage(mediaType, format, bytes);
  const layout = readHeifLayout(bytes, format);
  const size = layout.crop ?? layout;
  return {
    info: {
      mediaType,
      bytes: bytes.length,
      width: size.width,
      height: size.height,
      orientation: layout.orientation,
      frames: Math.max(1, heifSequenceFrames(bytes, format)),
      hasAlpha: layout.hasAlpha,
      ...(layout.bitDepth !== undefined && { bitDepth: layout.bitDepth }),
    },
    iccProfile: async () => layout.iccProfile,
  };
}

/**
 * An image sequence (an animation: a `moov` track) with no still image (no `meta` box, so no image items),
 * as some encoders write animated AVIF. It is a valid file glimpse does not read, not a damaged one.
 */
function assertStillImage(mediaType: HeifInfo['mediaType'], format: string, bytes: Uint8Array): void {
  const boxes = heifTopLevel(bytes, format).types;
  // The compact form (brand mif3): AVIF's is rebuilt before this (avif/mini.ts); libheif 1.15 reads no other.
  if (boxes.includes('mini') && !boxes.includes('meta')) {
    throw new MediaError(
      'E_UNSUPPORTED',
      `This ${format} is in the compact form (a mif3 \`mini\` box in place of the meta box), which glimpse reads only for AV1 (AVIF), and no preset takes as it is. Convert it to a regular ${format}, PNG or JPEG and send that.`,
      { format, mediaType },
    );
  }
  if (boxes.includes('meta') || !boxes.includes('moov')) return;
  throw new MediaError(
    'E_UNSUPPORTED',
    `This ${format} is an animation (an image sequence) with no still image. glimpse reads only ${format} still images, and sends no animations. ${takersSentence(mediaType, format)} Save one frame as PNG or JPEG (for example \`ffmpeg -i in.${format.toLowerCase()} -frames:v 1 frame.png\`) and send that.`,
    { format, mediaType },
  );
}
