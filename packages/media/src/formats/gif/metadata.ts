// A GIF sent as it is loses its comment extensions, its XMP application extension ("XMP DataXMP") and
// whatever follows the trailer; every other block is copied byte for byte (the screen and colour tables,
// graphic control, the NETSCAPE loop and ICC ("ICCRGBG1012") application extensions, plain text, the images).
import { joinRanges } from '../bytes.js';
import type { MetadataRemoval } from '../format.js';
import { subBlocksEnd } from './integrity.js';
import { colourTableBytes, EXTENSION, IMAGE_DESCRIPTOR, LOGICAL_SCREEN_END, TRAILER } from './probe.js';

const COMMENT = 0xfe;
const APPLICATION = 0xff;

/** What an extension at `at` holds that is dropped, or undefined for one that is kept. */
function metadataIn(bytes: Uint8Array, at: number): string | undefined {
  const label = bytes[at + 1];
  if (label === COMMENT) return 'comments';
  if (label !== APPLICATION || bytes[at + 2] !== 11) return undefined;
  return String.fromCharCode(...bytes.subarray(at + 3, at + 14)) === 'XMP DataXMP' ? 'XMP' : undefined;
}

/** `bytes` without its comments, XMP and trailing data; the same array when there are none (or its blocks do not read). */
export function gifWithoutMetadata(bytes: Uint8Array): MetadataRemoval {
  if (bytes.length < LOGICAL_SCREEN_END) return { data: bytes, removed: [] };
  const removed = new Set<string>();
  const kept: [number, number][] = [];
  let at = LOGICAL_SCREEN_END + colourTableBytes(bytes[10]!);
  kept.push([0, at]);
  for (;;) {
    const block = bytes[at];
    if (block === TRAILER) {
      kept.push([at, at + 1]);
      if (at + 1 < bytes.length) removed.add('data after the trailer');
      break;
    }
    let end: number;
    if (block === EXTENSION) end = subBlocksEnd(bytes, at + 2);
    else if (block === IMAGE_DESCRIPTOR && at + 10 < bytes.length)
      end = subBlocksEnd(bytes, at + 10 + colourTableBytes(bytes[at + 9]!) + 1);
    else return { data: bytes, removed: [] }; // the integrity check names what is wrong
    if (end < 0) return { data: bytes, removed: [] };
    const what = block === EXTENSION ? metadataIn(bytes, at) : undefined;
    if (what) removed.add(what);
    else kept.push([at, end]);
    at = end;
  }
  if (removed.size === 0) return { data: bytes, removed: [] };
  return { data: joinRanges(bytes, kept), removed: [...removed] };
}
