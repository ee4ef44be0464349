import { largestIcoEntry } from './entries.js';
import type { IcoInfo } from '../../types.js';

/** ICO/CUR facts from the entry glimpse shows (the largest): its real size, read from the image's own header. */
export function probeIco(bytes: Uint8Array): IcoInfo {
  const entry = largestIcoEntry(bytes);
  return {
    mediaType: 'image/x-icon',
    bytes: bytes.length,
    width: entry.width,
    height: entry.height,
    orientation: 1,
    frames: 1,
    bitDepth: entry.bitDepth,
    hasAlpha: entry.hasAlpha,
    lossless: true,
  };
}
