// A WebP sent as it is loses its EXIF (GPS position, camera, dates) and XMP chunks whole, and VP8X's flags
// stop announcing them (decoders that check the flags against the chunks, as webpinfo does, would otherwise
// call the file broken). The RIFF size is rewritten; every other chunk (VP8X, ICCP, ALPH, the bitstream) is
// copied byte for byte. Sent as it is only when upright, so dropping EXIF's orientation never turns it.
import type { MetadataRemoval } from '../format.js';
import { copyRiffChunk, webpChunks, webpFile } from './riff.js';

const VP8X_EXIF = 0x08;
const VP8X_XMP = 0x04;
// ImageMagick 6 names its XMP chunk 'XMP\0', not the specification's 'XMP ': both carry the same packet.
const METADATA: Record<string, string> = { EXIF: 'EXIF', 'XMP ': 'XMP', 'XMP\0': 'XMP' };

/** `bytes` without its EXIF and XMP chunks and anything after the RIFF container; the same array when there are none. */
export function webpWithoutMetadata(bytes: Uint8Array): MetadataRemoval {
  let parsed: ReturnType<typeof webpChunks>;
  try {
    parsed = webpChunks(bytes);
  } catch {
    return { data: bytes, removed: [] };
  }
  const { reader, chunks } = parsed;
  const removed = new Set<string>();
  for (const chunk of chunks) if (METADATA[chunk.type]) removed.add(METADATA[chunk.type]!);
  if (8 + reader.u32le(4, 'RIFF header') < bytes.length) removed.add('data after the RIFF container');
  if (removed.size === 0) return { data: bytes, removed: [] };
  const kept = chunks
    .filter((chunk) => !METADATA[chunk.type])
    .map((chunk) => {
      const copy = copyRiffChunk(bytes, chunk);
      if (chunk.type === 'VP8X' && copy.length > 8) copy[8] = copy[8]! & ~(VP8X_EXIF | VP8X_XMP);
      return copy;
    });
  return { data: webpFile(kept), removed: [...removed] };
}
