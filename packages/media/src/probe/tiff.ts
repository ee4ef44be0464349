import type { UndecodedImageInfo } from '../types.js';
import { isOrientation, readTiffIfd0 } from '../exif.js';

const IMAGE_WIDTH = 0x0100;
const IMAGE_LENGTH = 0x0101;
const ORIENTATION = 0x0112;

/** TIFF is named, not converted: size and orientation from IFD0 when readable, so the error can say what it is. */
export function probeTiff(bytes: Uint8Array): UndecodedImageInfo {
  const tags = readTiffIfd0(bytes);
  const orientation = tags.get(ORIENTATION);
  return {
    mediaType: 'image/tiff',
    bytes: bytes.length,
    width: tags.get(IMAGE_WIDTH),
    height: tags.get(IMAGE_LENGTH),
    orientation: orientation !== undefined && isOrientation(orientation) ? orientation : 1,
    frames: 1,
  };
}
