import { isMediaError } from '../../errors.js';
import { decodeWebpRows } from './decoder-kernel.js';
import type { IntegrityProblem } from '../integrity-problem.js';

/**
 * The RIFF container's sizes as libwebp's demuxer checks them: the RIFF size covers exactly the file,
 * the chunks (each padded to an even length) tile it with nothing left over, the chunks inside each
 * animation frame tile the frame, and a VP8 chunk's first partition fits inside it; and the layout
 * webpinfo checks (`checkLayout`). Problems are repairable: the caller decodes what libwebp accepts and
 * re-encodes it.
 */
export function checkWebpIntegrity(bytes: Uint8Array): IntegrityProblem | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 12) return { fatal: false, problem: 'the RIFF header is cut short' };
  const riffEnd = 8 + view.getUint32(4, true);
  if (riffEnd !== bytes.length)
    return { fatal: false, problem: `its RIFF size says ${riffEnd} bytes but the file has ${bytes.length}` };
  return checkChunks(bytes, view, 12, riffEnd, 0) ?? checkLayout(bytes, view);
}

const ALPHA_FLAG = 0x10;

/** VP8X flags and the chunk each one stands for (a flag without its chunk, or a chunk without its flag, is refused). */
const PROMISED_CHUNKS: readonly [flag: number, chunk: string][] = [
  [0x20, 'ICCP'],
  [0x08, 'EXIF'],
  [0x04, 'XMP '],
  [0x02, 'ANIM'],
];

/**
 * The chunk layout webpinfo holds a file to (the WebP container specification): a file without VP8X is
 * one VP8 or VP8L chunk; with VP8X, at most one each of VP8X, ICCP, ANIM, ALPH, EXIF and XMP, the VP8X
 * flags agreeing with the ICCP, EXIF, XMP, ANIM and ALPH chunks present, ICCP and ALPH before the image
 * data, ANMF frames after the ANIM chunk, and in a still one image bitstream the size of the VP8X canvas. (Sizes are checked before this.)
 */
function checkLayout(bytes: Uint8Array, view: DataView): IntegrityProblem | undefined {
  const problem = (text: string): IntegrityProblem => ({ fatal: false, problem: text });
  const chunks: { type: string; body: number; length: number }[] = [];
  for (let offset = 12; offset + 8 <= bytes.length; ) {
    const length = view.getUint32(offset + 4, true);
    chunks.push({ type: String.fromCharCode(...bytes.subarray(offset, offset + 4)), body: offset + 8, length });
    offset += 8 + length + (length & 1);
  }
  const first = chunks[0];
  const images = chunks.filter((chunk) => chunk.type === 'VP8 ' || chunk.type === 'VP8L');
  if (first?.type !== 'VP8X')
    return chunks.length === 1 && images.length === 1
      ? undefined
      : problem('it is not one VP8 or VP8L chunk, nor has a VP8X header');
  if (first.length < 10) return problem('its VP8X chunk is cut short');
  for (const type of ['VP8X', 'ICCP', 'ANIM', 'ALPH', 'EXIF', 'XMP '])
    if (chunks.filter((chunk) => chunk.type === type).length > 1)
      return problem(`it has more than one ${type.trim()} chunk`);
  // The colour profile comes before all image data, an alpha plane before the bitstream it belongs to.
  const firstOf = (types: readonly string[]) => {
    const index = chunks.findIndex((chunk) => types.includes(chunk.type));
    return index < 0 ? chunks.length : index;
  };
  if (chunks.some((chunk, index) => chunk.type === 'ICCP' && index > firstOf(['ANIM', 'ANMF', 'ALPH', 'VP8 ', 'VP8L'])))
    return problem('its ICCP chunk comes after the image data');
  // Animation frames follow the ANIM chunk that says how to play them (there is none in a still image).
  if (chunks.some((chunk, index) => chunk.type === 'ANMF' && index < firstOf(['ANIM'])))
    return problem('it has an animation frame (ANMF) before, or without, an ANIM chunk');
  if (chunks.some((chunk, index) => chunk.type === 'ALPH' && index > firstOf(['VP8 ', 'VP8L'])))
    return problem('its ALPH chunk comes after the image bitstream');
  const flags = bytes[first.body]!;
  for (const [flag, type] of PROMISED_CHUNKS) {
    const present = chunks.some((chunk) => chunk.type === type);
    if (flags & flag && !present) return problem(`its VP8X header promises an ${type.trim()} chunk that is missing`);
    if (!(flags & flag) && present) return problem(`it has an ${type.trim()} chunk its VP8X header does not announce`);
  }
  if (!(flags & ALPHA_FLAG) && chunks.some((chunk) => chunk.type === 'ALPH'))
    return problem('it has an ALPH chunk but its VP8X header says it has no alpha');
  if (flags & 0x02) return undefined; // an animation: its frames hold the bitstreams
  const image = images[0];
  if (!image || images.length > 1) return problem(`it holds ${images.length} image bitstreams, not one`);
  const u24 = (at: number) => bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16);
  const canvas = { width: 1 + u24(first.body + 4), height: 1 + u24(first.body + 7) };
  const size = bitstreamSize(view, image);
  if (size && (size.width !== canvas.width || size.height !== canvas.height))
    return problem(`its image is ${size.width}x${size.height} but its VP8X canvas ${canvas.width}x${canvas.height}`);
  return undefined;
}

/** The size a VP8 (key frame header) or VP8L (header after the signature) bitstream declares, if it is long enough to say. */
function bitstreamSize(
  view: DataView,
  chunk: { type: string; body: number; length: number },
): { width: number; height: number } | undefined {
  if (chunk.type === 'VP8 ' && chunk.length >= 10)
    return {
      width: view.getUint16(chunk.body + 6, true) & 0x3fff,
      height: view.getUint16(chunk.body + 8, true) & 0x3fff,
    };
  if (chunk.type === 'VP8L' && chunk.length >= 5) {
    const bits = view.getUint32(chunk.body + 1, true);
    return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >>> 14) & 0x3fff) };
  }
  return undefined;
}

function checkChunks(
  bytes: Uint8Array,
  view: DataView,
  start: number,
  end: number,
  depth: number,
): IntegrityProblem | undefined {
  let offset = start;
  while (offset < end) {
    if (offset + 8 > end) return { fatal: false, problem: `${end - offset} stray bytes follow the last chunk` };
    const type = String.fromCharCode(bytes[offset]!, bytes[offset + 1]!, bytes[offset + 2]!, bytes[offset + 3]!);
    const length = view.getUint32(offset + 4, true);
    const body = offset + 8;
    const next = body + length + (length & 1);
    if (next > end) return { fatal: false, problem: `a chunk at byte ${offset} runs past the end of its container` };
    if (type === 'ANMF' && depth === 0) {
      if (length < 16) return { fatal: false, problem: 'an animation frame header is cut short' };
      const inner = checkChunks(bytes, view, body + 16, body + length, depth + 1);
      if (inner) return inner;
    } else if (type === 'VP8 ') {
      if (length < 10) return { fatal: false, problem: 'a VP8 chunk is too short for its frame header' };
      const tag = bytes[body]! | (bytes[body + 1]! << 8) | (bytes[body + 2]! << 16);
      const firstPartition = tag >>> 5;
      if (10 + firstPartition > length) return { fatal: false, problem: 'the VP8 first partition runs past its chunk' };
    }
    offset = next;
  }
  return undefined;
}

/** libwebp decodes the whole image, as dwebp does; what it refuses is fatal. */
export async function verifyWebpIntegrity(bytes: Uint8Array): Promise<IntegrityProblem | undefined> {
  try {
    await decodeWebpRows(bytes, undefined, { start() {}, write() {} });
    return undefined;
  } catch (error) {
    // The decoder's message names libwebp's status in parentheses: that is the reason to quote.
    if (isMediaError(error) && error.code === 'E_CORRUPT')
      return {
        fatal: true,
        problem: `libwebp cannot decode it (${/\((.+?)\)/.exec(error.message)?.[1] ?? 'damaged data'})`,
      };
    throw error;
  }
}
