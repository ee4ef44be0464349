import { crc32 } from './crc32.js';
import type { IntegrityProblem } from './integrity-problem.js';

const SIGNATURE_LENGTH = 8;

/** Critical chunks: a decoder cannot show the image without them, so libpng treats their CRC errors as fatal. */
function isCritical(type: number): boolean {
  return (type & 0x20000000) === 0; // bit 5 of the first byte: uppercase = critical
}

/** PNG chunk types are four ASCII letters. */
function isChunkType(bytes: Uint8Array, at: number): boolean {
  for (let i = at; i < at + 4; i++) {
    const c = bytes[i]! | 0x20;
    if (c < 0x61 || c > 0x7a) return false;
  }
  return true;
}

/**
 * What libpng checks before it hands out pixels, without inflating: every chunk's CRC, chunk types made
 * of letters, IDAT chunks in one run, and nothing after IEND. A damaged critical chunk (IHDR, PLTE, IDAT,
 * IEND) means the pixels themselves are in doubt; anything else a re-encode repairs.
 * `probePng` has already checked that IHDR comes first and the chain reaches IEND.
 */
export function checkPngIntegrity(bytes: Uint8Array): IntegrityProblem | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = SIGNATURE_LENGTH;
  let idatRunEnded = false;
  let sawIdat = false;
  let repairable: IntegrityProblem | undefined;
  while (offset + 12 <= bytes.length) {
    const length = view.getUint32(offset);
    const end = offset + 12 + length;
    if (length > 0x7fffffff || end > bytes.length)
      return { fatal: true, problem: `a chunk at byte ${offset} runs past the end of the file` };
    if (!isChunkType(bytes, offset + 4))
      return { fatal: true, problem: `the chunk at byte ${offset} has a type that is not four letters` };
    const type = view.getUint32(offset + 4);
    const name = String.fromCharCode(bytes[offset + 4]!, bytes[offset + 5]!, bytes[offset + 6]!, bytes[offset + 7]!);
    if (crc32(bytes, offset + 4, end - 4) !== view.getUint32(end - 4)) {
      const problem = `the ${name} chunk at byte ${offset} fails its CRC check`;
      if (isCritical(type)) return { fatal: true, problem };
      repairable ??= { fatal: false, problem };
    }
    if (name === 'IDAT') {
      if (idatRunEnded) return { fatal: true, problem: 'its IDAT chunks are not consecutive' };
      sawIdat = true;
    } else if (sawIdat) {
      idatRunEnded = true;
    }
    offset = end;
    if (name === 'IEND') {
      if (offset !== bytes.length)
        repairable ??= { fatal: false, problem: `${bytes.length - offset} bytes follow the IEND chunk` };
      return repairable;
    }
  }
  return { fatal: true, problem: 'the chunk chain does not reach IEND' };
}
