// ISO BMFF boxes (ISO/IEC 14496-12), the structure every HEIF-family file is made of: the bounded walk the
// item graph and the integrity check start from, and the top-level facts read straight from it (which boxes
// the file holds, the frames of an image sequence beside the still).
import { isMediaError } from '../../errors.js';
import { ByteReader, corrupt } from '../byte-reader.js';

/** Boxes and items are few in real files; the caps bound every loop on hostile input. */
export const MAX_BOXES = 4096;

export interface Box {
  type: string;
  start: number;
  /** First byte after the header (and after version/flags for full boxes, which callers skip). */
  body: number;
  end: number;
}

/** A box type is four printable ASCII characters; anything else after the last box is stray bytes. */
function isBoxType(type: string): boolean {
  return /^[\x20-\x7e]{4}$/.test(type);
}

/** The boxes directly inside [start, end). */
export function childBoxes(reader: ByteReader, start: number, end: number): Box[] {
  return walkBoxes(reader, start, end, false).boxes;
}

/** The boxes a walk read, and where it stopped before the end (see walkBoxes). */
interface BoxWalk {
  boxes: Box[];
  /** Where bytes stop reading as boxes, when that is before the end. */
  tail?: number;
  /** A box at `tail` whose size runs past the end (a text type: a box cut short, not noise). */
  tailProblem?: string;
}

/**
 * The boxes in [start, end). At the file's top level (`fileLevel`), what follows the meta box and does not
 * read as a box (a type that is not text, a size past the end) ends the walk at `tail`: libheif ignores such
 * trailing bytes, and whether the image was cut short is told by its items' data (heifDataPresent).
 */
export function walkBoxes(reader: ByteReader, start: number, end: number, fileLevel: boolean): BoxWalk {
  const boxes: Box[] = [];
  let afterMeta = false;
  let offset = start;
  while (offset + 8 <= end) {
    if (boxes.length >= MAX_BOXES) throw corrupt(reader.format, 'it holds more boxes than any real file');
    let size = reader.u32be(offset, 'box header');
    const type = reader.ascii(offset + 4, 4, 'box type');
    const name = JSON.stringify(type);
    let header = 8;
    if (size === 1) {
      if (afterMeta && offset + 16 > end) return { boxes, tail: offset };
      const high = reader.u32be(offset + 8, 'box size');
      size = high * 2 ** 32 + reader.u32be(offset + 12, 'box size');
      header = 16;
    } else if (size === 0) {
      size = end - offset;
    }
    const problem =
      size < header
        ? `the ${name} box at byte ${offset} declares ${size} bytes`
        : offset + size > end
          ? `the ${name} box runs past the end of the file (it is cut short)`
          : undefined;
    if (afterMeta && (!isBoxType(type) || problem)) {
      return { boxes, tail: offset, ...(isBoxType(type) && { tailProblem: problem }) };
    }
    if (size < header) throw corrupt(reader.format, problem!);
    // A box may run past the end only when the file was cut short: that is truncation, named as such.
    if (offset + size > end) reader.need(offset, size, `${name} box`);
    boxes.push({ type, start: offset, body: offset + header, end: offset + size });
    afterMeta ||= fileLevel && type === 'meta';
    offset += size;
  }
  return offset < end ? { boxes, tail: offset } : { boxes };
}

export function find(boxes: Box[], type: string): Box | undefined {
  return boxes.find((box) => box.type === type);
}

/**
 * The file's top-level boxes (`ftyp`, `meta`, `moov`, `mdat`, …, in order) and, after the meta box, where
 * bytes stop reading as boxes (`tail`; `tailProblem` when a box there is cut short).
 */
export interface HeifTopLevel {
  types: string[];
  tail?: number;
  tailProblem?: string;
}

export function heifTopLevel(bytes: Uint8Array, format: string): HeifTopLevel {
  const { boxes, ...tail } = walkBoxes(new ByteReader(bytes, format), 0, bytes.length, true);
  return { types: boxes.map((box) => box.type), ...tail };
}

/**
 * How many frames the file's image sequence has (the largest picture or video track in its `moov` box: an
 * animated AVIF/HEIF beside its still first frame), 0 when it has none. Only the still is ever decoded, so a
 * sequence that does not read counts as none rather than failing the still.
 */
export function heifSequenceFrames(bytes: Uint8Array, format: string): number {
  const reader = new ByteReader(bytes, format);
  const inside = (box: Box | undefined, type: string) => box && find(childBoxes(reader, box.body, box.end), type);
  try {
    const moov = find(walkBoxes(reader, 0, bytes.length, true).boxes, 'moov');
    if (!moov) return 0;
    let frames = 0;
    for (const trak of childBoxes(reader, moov.body, moov.end).filter((box) => box.type === 'trak')) {
      const mdia = inside(trak, 'mdia');
      const hdlr = inside(mdia, 'hdlr'); // full box; pre_defined, then handler_type
      const handler = hdlr && reader.ascii(hdlr.body + 8, 4, 'hdlr box');
      if (handler !== 'pict' && handler !== 'vide') continue; // not an alpha (auxv) or metadata track
      const stbl = inside(inside(mdia, 'minf'), 'stbl');
      const sizes = stbl && (inside(stbl, 'stsz') ?? inside(stbl, 'stz2')); // full box; a field, then sample_count
      if (sizes) frames = Math.max(frames, reader.u32be(sizes.body + 8, `${sizes.type} box`));
    }
    return frames;
  } catch (cause) {
    if (isMediaError(cause)) return 0;
    throw cause;
  }
}
