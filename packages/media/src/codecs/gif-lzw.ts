// GIF's variable-width LZW (GIF89a spec, appendix F), decoded into a caller-sized index buffer.
import { MediaError } from '../errors.js';

const MAX_CODES = 4096;
const MAX_CODE_SIZE = 12;
const NO_PREFIX = 0xffff;
const MAX_MIN_CODE_SIZE = MAX_CODE_SIZE - 1;

/**
 * Decodes the LZW data whose sub-blocks start at `offset` (the byte after the minimum code size) into
 * `indices`, one colour index per byte in stream order. Writing stops at the end of `indices`, so a
 * stream that decodes to more pixels than the frame holds costs no memory. A stream that ends early
 * (missing end code, truncated file) is not an error: the count of written indices tells the caller
 * how much of the frame exists. Returns that count.
 * Throws `E_CORRUPT` for a code the dictionary cannot hold yet, or a minimum code size outside 1–11.
 */
export function decodeGifLzw(bytes: Uint8Array, offset: number, minCodeSize: number, indices: Uint8Array): number {
  // The spec says 2–8, but browsers and libnsgif take any size whose first codes fit in 12 bits (up to 11); indices
  // past 255 keep their low byte, as in those decoders.
  if (minCodeSize < 1 || minCodeSize > MAX_MIN_CODE_SIZE) throw malformed(`its LZW minimum code size is ${minCodeSize} (1 to ${MAX_MIN_CODE_SIZE} allowed)`);
  const clearCode = 1 << minCodeSize;
  const endCode = clearCode + 1;
  // Each code is a string: its last byte, the code of the rest, its first byte and its length.
  const prefix = new Uint16Array(MAX_CODES);
  const suffix = new Uint8Array(MAX_CODES);
  const first = new Uint8Array(MAX_CODES);
  const length = new Uint16Array(MAX_CODES);
  for (let code = 0; code < clearCode; code++) {
    prefix[code] = NO_PREFIX;
    suffix[code] = code;
    first[code] = code;
    length[code] = 1;
  }

  const capacity = indices.length;
  let codeSize = minCodeSize + 1;
  let nextCode = clearCode + 2;
  let previous = -1;
  let written = 0;
  // Bit reader over the chain of length-prefixed sub-blocks; codes are packed least significant bit first.
  let position = offset;
  let blockLeft = 0;
  let bits = 0;
  let bitCount = 0;

  while (written < capacity) {
    while (bitCount < codeSize) {
      if (blockLeft === 0) {
        if (position >= bytes.length) return written;
        blockLeft = bytes[position++];
        if (blockLeft === 0) return written; // the block terminator came before the end code
      }
      if (position >= bytes.length) return written;
      bits |= bytes[position++] << bitCount;
      bitCount += 8;
      blockLeft--;
    }
    const code = bits & ((1 << codeSize) - 1);
    bits >>>= codeSize;
    bitCount -= codeSize;

    if (code === clearCode) {
      codeSize = minCodeSize + 1;
      nextCode = clearCode + 2;
      previous = -1;
      continue;
    }
    if (code === endCode) return written;

    if (previous === -1) {
      if (code >= clearCode) throw malformed(`its LZW data starts with code ${code}, which is not a colour index`);
      indices[written++] = code;
      previous = code;
      continue;
    }
    let added: number; // the byte that extends the previous string into the next dictionary entry
    if (code < nextCode) {
      written = writeString(indices, written, code, prefix, suffix, length);
      added = first[code];
    } else if (code === nextCode) {
      // The string being defined right now: the previous one plus its own first byte.
      written = writeString(indices, written, previous, prefix, suffix, length);
      if (written < capacity) indices[written] = first[previous];
      written++;
      added = first[previous];
    } else {
      throw malformed(`its LZW data uses code ${code} before it is defined`);
    }
    if (nextCode < MAX_CODES) {
      prefix[nextCode] = previous;
      suffix[nextCode] = added;
      first[nextCode] = first[previous];
      length[nextCode] = length[previous] + 1;
      nextCode++;
      if (nextCode === 1 << codeSize && codeSize < MAX_CODE_SIZE) codeSize++;
    }
    previous = code;
  }
  return Math.min(written, capacity);
}

/** Writes the string of `code` at `at` (back to front along its prefix chain), dropping bytes past the end. */
function writeString(indices: Uint8Array, at: number, code: number, prefix: Uint16Array, suffix: Uint8Array, length: Uint16Array): number {
  const size = length[code];
  let current = code;
  let k = size - 1;
  // Bytes past the end: walk the chain without writing.
  for (; k >= 0 && at + k >= indices.length; k--) current = prefix[current];
  for (; k >= 0; k--) {
    indices[at + k] = suffix[current];
    current = prefix[current];
  }
  return at + size;
}

function malformed(problem: string): MediaError {
  return new MediaError('E_CORRUPT', `The GIF file is malformed: ${problem}. Re-export it from the original application.`, { format: 'GIF' });
}
