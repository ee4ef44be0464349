// A PNG sent as it is loses its metadata chunks whole: eXIf (Exif: GPS position, camera, dates), the text
// chunks (tEXt, zTXt, iTXt: XMP packets, "Raw profile type exif", comments, authors) and tIME; and whatever
// follows IEND. Each chunk carries its own CRC, so the rest is copied byte for byte: IHDR, PLTE, tRNS, the
// colour chunks (iCCP, sRGB, gAMA, cHRM), pHYs, the image data. Sent as it is only when upright, so
// dropping eXIf's orientation never turns the picture.
import { joinRanges } from '../bytes.js';
import type { MetadataRemoval } from '../format.js';
import { PNG_SIGNATURE, pngChunkList } from './chunks.js';

const METADATA = new Set(['eXIf', 'tEXt', 'zTXt', 'iTXt', 'tIME']);

/** `bytes` without its metadata chunks and trailing data; the same array when there are none. */
export function pngWithoutMetadata(bytes: Uint8Array): MetadataRemoval {
  const chunks = pngChunkList(bytes);
  if (!chunks) return { data: bytes, removed: [] };
  const removed = new Set<string>();
  for (const chunk of chunks) if (METADATA.has(chunk.type)) removed.add(chunk.type);
  const end = chunks[chunks.length - 1]?.end ?? bytes.length;
  if (end < bytes.length) removed.add('data after IEND');
  if (removed.size === 0) return { data: bytes, removed: [] };
  const kept = chunks.filter((chunk) => !METADATA.has(chunk.type)).map(({ start, end }) => [start, end] as const);
  return { data: joinRanges(bytes, [[0, PNG_SIGNATURE.length], ...kept]), removed: [...removed] };
}
