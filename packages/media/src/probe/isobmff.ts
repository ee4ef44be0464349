import type { UndecodedImageInfo } from '../types.js';

/** Boxes nest a few levels deep; the cap bounds the walk on hostile input. */
const MAX_BOXES = 4096;

/**
 * HEIC/HEIF/AVIF are named, not converted. Their size, when readable, comes from the largest `ispe`
 * (image spatial extents) property in meta/iprp/ipco: the primary image or, for tiled photos, its grid.
 */
export function probeIsoBmff(mediaType: 'image/heic' | 'image/heif' | 'image/avif', bytes: Uint8Array): UndecodedImageInfo {
  const size = largestImageExtent(bytes);
  return { mediaType, bytes: bytes.length, orientation: 1, frames: 1, ...size };
}

function largestImageExtent(bytes: Uint8Array): { width: number; height: number } | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let best: { width: number; height: number } | undefined;
  let visited = 0;
  const walk = (start: number, end: number): void => {
    let offset = start;
    while (offset + 8 <= end && visited++ < MAX_BOXES) {
      let size = view.getUint32(offset);
      const type = String.fromCharCode(bytes[offset + 4], bytes[offset + 5], bytes[offset + 6], bytes[offset + 7]);
      let header = 8;
      if (size === 1) {
        if (offset + 16 > end) return;
        size = view.getUint32(offset + 8) * 2 ** 32 + view.getUint32(offset + 12);
        header = 16;
      } else if (size === 0) {
        size = end - offset;
      }
      if (size < header || offset + size > end) return;
      const body = offset + header;
      if (type === 'meta') walk(body + 4, offset + size); // full box: version and flags first
      else if (type === 'iprp' || type === 'ipco') walk(body, offset + size);
      else if (type === 'ispe' && body + 12 <= offset + size) {
        const width = view.getUint32(body + 4);
        const height = view.getUint32(body + 8);
        if (width > 0 && height > 0 && (!best || width * height > best.width * best.height)) best = { width, height };
      }
      offset += size;
    }
  };
  walk(0, bytes.length);
  return best;
}
