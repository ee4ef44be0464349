import type { IntegrityProblem } from './integrity-problem.js';

/**
 * The RIFF container's sizes as libwebp's demuxer checks them: the RIFF size covers exactly the file,
 * the chunks (each padded to an even length) tile it with nothing left over, the chunks inside each
 * animation frame tile the frame, and a VP8 chunk's first partition fits inside it.
 * Problems are repairable: the caller decodes what libwebp accepts and re-encodes it.
 */
export function checkWebpIntegrity(bytes: Uint8Array): IntegrityProblem | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 12) return { fatal: false, problem: 'the RIFF header is cut short' };
  const riffEnd = 8 + view.getUint32(4, true);
  if (riffEnd !== bytes.length)
    return { fatal: false, problem: `its RIFF size says ${riffEnd} bytes but the file has ${bytes.length}` };
  return checkChunks(bytes, view, 12, riffEnd, 0);
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
