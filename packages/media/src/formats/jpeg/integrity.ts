import { strictRead } from '../../runtime/kernel-instance.js';
import { type IntegrityProblem, strictReadProblem } from '../integrity-problem.js';

const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;
const DHT = 0xc4;
const DQT = 0xdb;
const DRI = 0xdd;

function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== DHT && marker !== 0xc8 && marker !== 0xcc;
}

const hex = (marker: number) => `0xFF${marker.toString(16).toUpperCase()}`;

/**
 * The JPEG's marker structure as libjpeg walks it, without decoding: segments that fit, one 8-bit frame
 * header whose length matches its components, quantisation and Huffman tables whose lengths add up,
 * scan headers naming frame components whose quantisation tables are defined (a missing Huffman table is
 * not a problem: libjpeg-turbo supplies the standard ones), entropy-coded data holding only stuffed bytes and restart
 * markers, and an EOI. Bytes after EOI are allowed (phones append preview images there).
 * Problems are not fatal here: decoding decides. libjpeg recovers from most (stray bytes, a missing EOI) and
 * the pixels are re-encoded; what it cannot read becomes E_CORRUPT.
 * (Truncation and precision are decided by the caller before this runs.)
 */
export function checkJpegIntegrity(bytes: Uint8Array): IntegrityProblem | undefined {
  const problem = (text: string): IntegrityProblem => ({ fatal: false, problem: text });
  if (bytes[0] !== 0xff || bytes[1] !== SOI) return problem('it does not start with SOI');
  /** Frame component id → its quantisation table slot; and the slots DQT segments have filled so far. */
  const components = new Map<number, number>();
  const quantTables = new Set<number>();
  let sawFrame = false;
  let sawScan = false;
  let offset = 2;
  for (;;) {
    if (offset + 1 >= bytes.length) return problem('it ends without an EOI marker');
    if (bytes[offset] !== 0xff) return problem(`byte ${offset} lies between segments`);
    while (bytes[offset + 1] === 0xff && offset + 2 < bytes.length) offset++; // fill bytes
    const marker = bytes[offset + 1]!;
    offset += 2;
    if (marker === EOI) return sawScan ? undefined : problem('it ends before any scan');
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8) || marker === 0x00)
      return problem(`marker ${hex(marker)} at byte ${offset - 2} is out of place`);
    if (offset + 2 > bytes.length) return problem(`segment ${hex(marker)} is cut short`);
    const length = (bytes[offset]! << 8) | bytes[offset + 1]!;
    const body = offset + 2;
    const end = offset + length;
    if (length < 2 || end > bytes.length)
      return problem(`segment ${hex(marker)} at byte ${offset - 2} runs past the end of the file`);

    if (isStartOfFrame(marker)) {
      if (sawFrame) return problem('it has more than one frame header');
      sawFrame = true;
      const count = bytes[body + 5] ?? 0;
      if (length !== 8 + 3 * count || count === 0)
        return problem('its frame header length does not match its component count');
      for (let i = 0; i < count; i++) components.set(bytes[body + 6 + i * 3]!, bytes[body + 8 + i * 3]!);
    } else if (marker === DQT) {
      for (let at = body; at < end; ) {
        const precision = bytes[at]! >> 4;
        if (precision > 1 || (bytes[at]! & 0x0f) > 3)
          return problem('a quantisation table has an invalid precision or slot');
        quantTables.add(bytes[at]! & 0x0f);
        at += 1 + (precision ? 128 : 64);
        if (at > end) return problem('its quantisation tables do not fit their segment');
      }
    } else if (marker === DHT) {
      for (let at = body; at < end; ) {
        if (at + 17 > end || bytes[at]! >> 4 > 1 || (bytes[at]! & 0x0f) > 3)
          return problem('a Huffman table header is invalid');
        let symbols = 0;
        for (let i = 1; i <= 16; i++) symbols += bytes[at + i]!;
        if (symbols > 256) return problem('a Huffman table has more than 256 symbols');
        at += 17 + symbols;
        if (at > end) return problem('its Huffman tables do not fit their segment');
      }
    } else if (marker === DRI) {
      if (length !== 4) return problem('its restart interval segment has the wrong length');
    } else if (marker === SOS) {
      if (!sawFrame) return problem('a scan starts before the frame header');
      const count = bytes[body] ?? 0;
      if (count < 1 || count > 4 || length !== 6 + 2 * count)
        return problem('a scan header length does not match its component count');
      for (let i = 0; i < count; i++) {
        const slot = components.get(bytes[body + 1 + i * 2]!);
        if (slot === undefined) return problem('a scan names a component the frame does not have');
        if (!quantTables.has(slot))
          return problem(`a scan uses quantisation table ${slot}, which no DQT segment defined`);
      }
      sawScan = true;
      const next = endOfEntropyData(bytes, end);
      if (next < 0) return problem('its image data ends without an EOI marker');
      offset = next;
      continue;
    }
    offset = end;
  }
}

/** Offset of the first marker after entropy-coded data starting at `from` (not a stuffed 0xFF00, fill or RSTn), or -1. */
function endOfEntropyData(bytes: Uint8Array, from: number): number {
  let at = from;
  for (;;) {
    at = bytes.indexOf(0xff, at);
    if (at < 0 || at + 1 >= bytes.length) return -1;
    const next = bytes[at + 1]!;
    if (next === 0x00 || next === 0xff || (next >= 0xd0 && next <= 0xd7)) {
      at += next === 0xff ? 1 : 2;
      continue;
    }
    return at;
  }
}

/** libjpeg itself (jpeg.wasm's `verify`) decodes every scan to the EOI, as `djpeg -strict` does. */
export async function verifyJpegIntegrity(bytes: Uint8Array): Promise<IntegrityProblem | undefined> {
  return strictReadProblem('libjpeg', await strictRead('jpeg', bytes));
}
