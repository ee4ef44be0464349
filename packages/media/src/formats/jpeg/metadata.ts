// A JPEG sent as it is loses what tells where, when and with what it was taken, and nothing else: the
// segments holding Exif (GPS position, camera, dates, a thumbnail), XMP, IPTC (Photoshop's APP13) and
// comments are cut out whole, and so is whatever follows the image's EOI (the extra pictures of an MPF file,
// each with its own Exif, or anything appended). Every other byte is kept as it was: JFIF (APP0), the ICC
// profile (APP2 ICC_PROFILE), Adobe's colour transform (APP14), the tables, frame and scans; so the pixels
// are the same bytes, with no re-encoding. The file is sent as it is only when it is upright (orientation
// 1), so dropping Exif's orientation never turns the picture.
import { joinRanges } from '../bytes.js';
import type { MetadataRemoval } from '../format.js';
import { APP0, APP2, EOI, jpegHeader, type JpegSegment, SOS } from './segments.js';

const COM = 0xfe;
const APP14 = 0xee;
const ICC_SIGNATURE = 'ICC_PROFILE\0';

/** What a segment that is dropped holds, or undefined for one that is kept. */
function metadataIn(bytes: Uint8Array, marker: number, body: number, end: number): string | undefined {
  if (marker === COM) return 'comments';
  if (marker === APP0 || marker === APP14 || marker < APP0 || marker > 0xef) return undefined;
  const head = String.fromCharCode(...bytes.subarray(body, Math.min(end, body + 30)));
  if (marker === APP2) return head.startsWith(ICC_SIGNATURE) ? undefined : head.startsWith('MPF\0') ? 'MPF' : 'APP2';
  if (marker === 0xe1)
    return head.startsWith('Exif\0') ? 'Exif' : head.startsWith('http://ns.adobe.com/') ? 'XMP' : 'APP1';
  if (marker === 0xed) return 'IPTC';
  return `APP${marker - APP0}`;
}

/** `bytes` without its metadata segments and trailing data; the same array when there are none. */
export function jpegWithoutMetadata(bytes: Uint8Array): MetadataRemoval {
  const header = jpegHeader(bytes);
  if (!header) return { data: bytes, removed: [] };
  const removed = new Set<string>();
  const kept: [number, number][] = [[0, 2]]; // SOI
  const keep = (start: number, end: number) => {
    const last = kept[kept.length - 1]!;
    if (last[1] === start) last[1] = end;
    else kept.push([start, end]);
  };
  const segment = ({ marker, start, body, end }: JpegSegment) => {
    const what = metadataIn(bytes, marker, body, end);
    if (what) removed.add(what);
    else keep(start, end);
  };
  for (const each of header.segments) segment(each);
  // From the first scan to EOI: entropy-coded data, and the segments between scans (tables, sometimes metadata).
  let at = header.scanStart;
  let from = at;
  for (;;) {
    at = bytes.indexOf(0xff, at);
    if (at < 0 || at + 1 >= bytes.length) return { data: bytes, removed: [] }; // no EOI: the integrity check's concern
    const marker = bytes[at + 1]!;
    if (marker === 0x00 || marker === 0xff || (marker >= 0xd0 && marker <= 0xd7)) {
      at += marker === 0xff ? 1 : 2; // stuffed byte, fill byte, restart marker: still inside the scan
      continue;
    }
    if (marker === EOI) {
      keep(from, at + 2);
      if (at + 2 < bytes.length) removed.add('data after the image');
      break;
    }
    if (at + 3 >= bytes.length) return { data: bytes, removed: [] };
    const end = at + 2 + ((bytes[at + 2]! << 8) | bytes[at + 3]!);
    if (marker !== SOS && metadataIn(bytes, marker, at + 4, end)) {
      keep(from, at);
      segment({ marker, start: at, body: at + 4, end });
      from = end;
    }
    at = end;
  }
  if (removed.size === 0) return { data: bytes, removed: [] };
  return { data: joinRanges(bytes, kept), removed: [...removed] };
}
