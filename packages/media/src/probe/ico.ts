import type { UndecodedImageInfo } from '../types.js';

/** ICO is named, not converted: the size of its largest entry (a stored 0 means 256), so the error can say what it is. */
export function probeIco(bytes: Uint8Array): UndecodedImageInfo {
  const count = bytes[4] | (bytes[5] << 8);
  let width = 0;
  let height = 0;
  for (let index = 0; index < count; index++) {
    const entry = 6 + index * 16;
    if (entry + 16 > bytes.length) break;
    const entryWidth = bytes[entry] || 256;
    const entryHeight = bytes[entry + 1] || 256;
    if (entryWidth * entryHeight > width * height) {
      width = entryWidth;
      height = entryHeight;
    }
  }
  return {
    mediaType: 'image/x-icon',
    bytes: bytes.length,
    orientation: 1,
    frames: 1,
    ...(width > 0 && { width, height }),
  };
}
