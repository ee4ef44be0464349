import { crc32 } from './crc32.js';
import { strictRead } from '../../runtime/kernel-instance.js';
import { type IntegrityProblem, strictReadProblem } from '../integrity-problem.js';

const SIGNATURE_LENGTH = 8;

/** Critical chunks: a decoder cannot show the image without them, so libpng treats their CRC errors as fatal. */
function isCritical(type: number): boolean {
  return (type & 0x20000000) === 0; // bit 5 of the first byte: uppercase = critical
}

/**
 * Public chunk names (second letter uppercase) that the PNG specification (3rd edition) and its registered
 * extensions define. Any other public name is reserved: libpng skips it, pngcheck refuses the file.
 */
const REGISTERED_PUBLIC_CHUNKS = new Set(
  (
    'IHDR PLTE IDAT IEND cHRM cICP gAMA iCCP mDCV cLLI sBIT sRGB bKGD hIST tRNS eXIf pHYs sPLT tIME iTXt ' +
    'tEXt zTXt acTL fcTL fdAT oFFs pCAL sCAL gIFg gIFt gIFx sTER dSIG fRAc'
  ).split(' '),
);

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
 * of letters, IDAT chunks in one run, and nothing after IEND; and two rules pngcheck adds: no public
 * chunk name that no specification defines, and a pHYs unit of 0 or 1. (Chunk lengths, values and
 * placement, and the image data, are libpng's to judge: `verifyIntegrity` runs it on the whole file.) A damaged critical chunk (IHDR, PLTE, IDAT,
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
    if (!isCritical(type) && (type & 0x200000) === 0 && !REGISTERED_PUBLIC_CHUNKS.has(name))
      repairable ??= { fatal: false, problem: `it has a ${name} chunk, a public name no specification defines` };
    // libpng keeps any unit; the specification defines two (unknown, metre), and pngcheck holds to them.
    if (name === 'pHYs' && length === 9 && bytes[offset + 16]! > 1)
      repairable ??= { fatal: false, problem: `its pHYs chunk has unit ${bytes[offset + 16]}` };
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

/**
 * libpng itself (png.wasm's `verify`) reads every chunk and every row, as pngcheck does, pulling the file
 * 64 KB at a time. `checked`: `checkPngIntegrity` found nothing wrong with these same bytes, every chunk's
 * CRC among them, so libpng does not compute the CRCs a second time (0.3 ms of a 366 KB screenshot's read).
 */
export async function verifyPngIntegrity(bytes: Uint8Array, checked = false): Promise<IntegrityProblem | undefined> {
  return strictReadProblem('libpng', await strictRead('png', bytes, { streamed: true, flags: checked ? 1 : 0 }));
}
