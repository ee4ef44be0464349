// A HEIC/HEIF sent as it is (the gemini preset) loses what its metadata items say, in place: the data of
// each `Exif` item (GPS position, camera, dates) becomes an empty Exif block (a TIFF header with no entries)
// and that of each `mime` item (XMP) an empty XMP packet, each padded to its length with zeros or spaces.
// No box moves and no offset changes, so the item graph, the coded image and its colour profile (`colr`)
// are the same bytes. Orientation is HEIF's irot/imir, which readers apply, not Exif's.
import { isMediaError } from '../../errors.js';
import type { MetadataRemoval } from '../format.js';
import { readItemGraph } from './item-graph.js';

/** exif_tiff_header_offset 0, then a big-endian TIFF header whose first directory has no entries. */
const EMPTY_EXIF = Uint8Array.of(0, 0, 0, 0, 0x4d, 0x4d, 0, 0x2a, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0);
const EMPTY_XMP = new TextEncoder().encode('<x:xmpmeta xmlns:x="adobe:ns:meta/"/>');

/** `bytes` with its Exif and XMP items blanked; the same array when it has none. */
export function heifWithoutMetadata(bytes: Uint8Array, format: string): MetadataRemoval {
  let graph: ReturnType<typeof readItemGraph>;
  try {
    graph = readItemGraph(bytes, format);
  } catch (cause) {
    if (isMediaError(cause)) return { data: bytes, removed: [] };
    throw cause;
  }
  const removed = new Set<string>();
  let data: Uint8Array | undefined;
  for (const [id, { type }] of graph.infos) {
    if (type !== 'Exif' && type !== 'mime') continue;
    const location = graph.locations.get(id);
    if (!location || location.extents.length === 0) continue;
    const base = location.inIdat ? graph.idat?.offset : 0;
    if (base === undefined) continue;
    const extents = location.extents.map(({ offset, length }) => ({ start: base + offset, length }));
    if (extents.some(({ start, length }) => start + length > bytes.length)) continue;
    data ??= bytes.slice();
    const [replacement, fill] = type === 'Exif' ? [EMPTY_EXIF, 0] : [EMPTY_XMP, 0x20];
    const total = extents.reduce((sum, { length }) => sum + length, 0);
    const written = total >= replacement.length ? replacement : new Uint8Array(0);
    let at = 0; // position in the item's logical data, across its extents
    for (const { start, length } of extents) {
      for (let i = 0; i < length; i++, at++) data[start + i] = at < written.length ? written[at]! : fill;
    }
    removed.add(type === 'Exif' ? 'Exif' : 'XMP');
  }
  return data ? { data, removed: [...removed] } : { data: bytes, removed: [] };
}
