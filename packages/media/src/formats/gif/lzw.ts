// GIF's variable-width LZW (GIF89a spec, appendix F), decoded as a stream: the caller asks for the next
// indices (a row at a time) and the decoder keeps its dictionary and position in between.
import { MediaError } from '../../errors.js';

const MAX_CODES = 4096;
const MAX_CODE_SIZE = 12;
const NO_PREFIX = 0xffff;
// The spec says 2–8, but browsers and libnsgif take any size whose first codes fit in 12 bits (up to 11);
// indices past 255 keep their low byte, as in those decoders.
const MAX_MIN_CODE_SIZE = MAX_CODE_SIZE - 1;

/** Colour indices in stream order, read a piece at a time. */
export interface LzwReader {
  /**
   * Writes the next indices into `out[at .. at + count)` and returns how many it wrote: fewer than
   * `count` only when the stream has ended (end code, block terminator or end of file), which is not an
   * error; the caller decides what missing pixels are. Throws `E_CORRUPT` for a code the dictionary
   * cannot hold yet.
   */
  read(out: Uint8Array, at: number, count: number): number;
}

/**
 * A reader of the LZW data whose sub-blocks start at `offset` (the byte after the minimum code size).
 * Memory: the 4096-entry dictionary and one string of at most 4096 bytes, whatever the image size.
 * Throws `E_CORRUPT` for a minimum code size outside 1–11.
 */
export function gifLzwReader(bytes: Uint8Array, offset: number, minCodeSize: number): LzwReader {
  if (minCodeSize < 1 || minCodeSize > MAX_MIN_CODE_SIZE)
    throw malformed(`its LZW minimum code size is ${minCodeSize} (1 to ${MAX_MIN_CODE_SIZE} allowed)`);
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

  let codeSize = minCodeSize + 1;
  let nextCode = clearCode + 2;
  let previous = -1;
  let ended = false;
  // Bit reader over the chain of length-prefixed sub-blocks; codes are packed least significant bit first.
  let position = offset;
  let blockLeft = 0;
  let bits = 0;
  let bitCount = 0;
  // The string of the last code, where it did not fit in the caller's buffer: pending[from .. to).
  const pending = new Uint8Array(MAX_CODES + 1);
  let from = 0;
  let to = 0;

  /** The next code, or -1 when the data runs out. */
  const nextCodeBits = (): number => {
    while (bitCount < codeSize) {
      if (blockLeft === 0) {
        if (position >= bytes.length) return -1;
        blockLeft = bytes[position++]!;
        if (blockLeft === 0) return -1; // the block terminator came before the end code
      }
      if (position >= bytes.length) return -1;
      bits |= bytes[position++]! << bitCount;
      bitCount += 8;
      blockLeft--;
    }
    const code = bits & ((1 << codeSize) - 1);
    bits >>>= codeSize;
    bitCount -= codeSize;
    return code;
  };

  /** Writes the string of `code` at out[at ..] (back to front along its prefix chain), then `extra` when ≥ 0. */
  const writeString = (out: Uint8Array, at: number, code: number, extra: number): number => {
    const size = length[code]!;
    let current = code;
    for (let k = size - 1; k >= 0; k--) {
      out[at + k] = suffix[current]!;
      current = prefix[current]!;
    }
    if (extra < 0) return size;
    out[at + size] = extra;
    return size + 1;
  };

  // The string decoded next: `stringCode`'s string, then `stringExtra` when ≥ 0.
  let stringCode = 0;
  let stringExtra = -1;

  /** Decodes the next code into stringCode/stringExtra; false at the end of the stream. */
  const decodeNext = (): boolean => {
    for (;;) {
      const code = ended ? -1 : nextCodeBits();
      if (code === -1 || code === endCode) {
        ended = true;
        return false;
      }
      if (code === clearCode) {
        codeSize = minCodeSize + 1;
        nextCode = clearCode + 2;
        previous = -1;
        continue;
      }
      if (previous === -1) {
        if (code >= clearCode) throw malformed(`its LZW data starts with code ${code}, which is not a colour index`);
        stringCode = code;
        stringExtra = -1;
        previous = code;
        return true;
      }
      let added: number; // the byte that extends the previous string into the next dictionary entry
      if (code < nextCode) {
        stringCode = code;
        stringExtra = -1;
        added = first[code]!;
      } else if (code === nextCode) {
        // The string being defined right now: the previous one plus its own first byte.
        stringCode = previous;
        stringExtra = first[previous]!;
        added = first[previous]!;
      } else {
        throw malformed(`its LZW data uses code ${code} before it is defined`);
      }
      if (nextCode < MAX_CODES) {
        prefix[nextCode] = previous;
        suffix[nextCode] = added;
        first[nextCode] = first[previous]!;
        length[nextCode] = length[previous]! + 1;
        nextCode++;
        if (nextCode === 1 << codeSize && codeSize < MAX_CODE_SIZE) codeSize++;
      }
      previous = code;
      return true;
    }
  };

  return {
    read(out, at, count) {
      let written = 0;
      while (from < to && written < count) out[at + written++] = pending[from++]!;
      while (written < count && decodeNext()) {
        const size = length[stringCode]! + (stringExtra >= 0 ? 1 : 0);
        if (size <= count - written) {
          written += writeString(out, at + written, stringCode, stringExtra);
          continue;
        }
        // The string runs past what was asked for: keep the rest for the next read.
        to = writeString(pending, 0, stringCode, stringExtra);
        from = 0;
        while (written < count) out[at + written++] = pending[from++]!;
      }
      return written;
    },
  };
}

function malformed(problem: string): MediaError {
  return new MediaError(
    'E_CORRUPT',
    `The GIF file is malformed: ${problem}. Re-export it from the original application.`,
    { format: 'GIF' },
  );
}
