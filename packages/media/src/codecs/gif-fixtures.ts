// Test fixtures: GIFs assembled byte by byte, with an LZW encoder written independently of the decoder.
import { concatBytes } from '../bytes.js';

export type Rgb = readonly [number, number, number];

export interface FrameSpec {
  left?: number;
  top?: number;
  width: number;
  height: number;
  indices: Uint8Array;
  local?: readonly Rgb[];
  transparentIndex?: number;
  /** Replaces the LZW data (sub-blocks and terminator are added around it). */
  lzw?: Uint8Array;
  minCodeSize?: number;
}

/** A compressing LZW encoder written for these tests, independent of the decoder: codes grow at 2^size + 1 entries, clear at 4096. */
export function encodeLzw(indices: Uint8Array, minCodeSize: number, { endCode = true } = {}): Uint8Array {
  const clear = 1 << minCodeSize;
  const out = new Uint8Array(Math.ceil(indices.length * 1.6) + 64);
  let length = 0;
  let bits = 0;
  let bitCount = 0;
  let size = minCodeSize + 1;
  const emit = (code: number) => {
    bits |= code << bitCount;
    bitCount += size;
    while (bitCount >= 8) {
      out[length++] = bits & 0xff;
      bits >>>= 8;
      bitCount -= 8;
    }
  };
  // Dictionary keyed by (prefix code, next index); a generation stamp empties it in O(1) on clear.
  const codes = new Uint16Array(4096 * 256);
  const stamps = new Uint32Array(4096 * 256);
  let generation = 1;
  let next = clear + 2;
  emit(clear);
  let prefix = indices[0];
  for (let i = 1; i < indices.length; i++) {
    const key = (prefix! << 8) | indices[i]!;
    if (stamps[key] === generation) {
      prefix = codes[key];
      continue;
    }
    emit(prefix!);
    if (next < 4096) {
      codes[key] = next;
      stamps[key] = generation;
      next++;
      if (next > 1 << size) size++;
    } else {
      emit(clear);
      generation++;
      next = clear + 2;
      size = minCodeSize + 1;
    }
    prefix = indices[i];
  }
  emit(prefix!);
  if (endCode) emit(clear + 1);
  if (bitCount > 0) out[length++] = bits & 0xff;
  return out.subarray(0, length);
}

/** Packs codes of one width, least significant bit first, as GIF does. */
export function packCodes(codes: readonly number[], size: number): Uint8Array {
  const out = new Uint8Array(Math.ceil((codes.length * size) / 8));
  codes.forEach((code, n) => {
    for (let bit = 0; bit < size; bit++)
      if ((code >> bit) & 1) out[(n * size + bit) >> 3]! |= 1 << ((n * size + bit) & 7);
  });
  return out;
}

/** A GIF89a from parts: logical screen, optional global table, one GCE + image per frame. */
export function buildGif(
  screen: { width: number; height: number },
  global: readonly Rgb[] | undefined,
  frames: FrameSpec[],
): Uint8Array {
  const parts: Uint8Array[] = [];
  let bytes: number[] = [...new TextEncoder().encode('GIF89a')];
  const u16 = (value: number) => bytes.push(value & 0xff, value >> 8);
  const table = (colours: readonly Rgb[]) => {
    const bitsFor = Math.max(1, Math.ceil(Math.log2(colours.length)));
    for (let i = 0; i < 1 << bitsFor; i++) bytes.push(...(colours[i] ?? [0, 0, 0]));
    return bitsFor - 1;
  };
  u16(screen.width);
  u16(screen.height);
  const flagsAt = bytes.push(0, 0, 0) - 3;
  if (global) bytes[flagsAt] = 0x80 | table(global);
  for (const frame of frames) {
    if (frame.transparentIndex !== undefined) bytes.push(0x21, 0xf9, 4, 0x01, 0, 0, frame.transparentIndex, 0);
    bytes.push(0x2c);
    u16(frame.left ?? 0);
    u16(frame.top ?? 0);
    u16(frame.width);
    u16(frame.height);
    const imageFlagsAt = bytes.push(0) - 1;
    if (frame.local) bytes[imageFlagsAt] = 0x80 | table(frame.local);
    const minCodeSize = frame.minCodeSize ?? 8;
    bytes.push(minCodeSize);
    parts.push(Uint8Array.from(bytes), subBlocks(frame.lzw ?? encodeLzw(frame.indices, minCodeSize)));
    bytes = [];
  }
  bytes.push(0x3b);
  parts.push(Uint8Array.from(bytes));
  return concatBytes(parts);
}

/** Splits data into length-prefixed sub-blocks of up to 255 bytes, ending with the zero-length terminator. */
function subBlocks(data: Uint8Array): Uint8Array {
  const out = new Uint8Array(data.length + Math.ceil(data.length / 255) + 1);
  let to = 0;
  for (let at = 0; at < data.length; at += 255) {
    const block = data.subarray(at, at + 255);
    out[to++] = block.length;
    out.set(block, to);
    to += block.length;
  }
  return out; // the last byte stays 0: the terminator
}

/** A 256-entry grey ramp: index i is (i, i, i), so decoded pixels name their index. */
export const GREY: readonly Rgb[] = Array.from({ length: 256 }, (_, i) => [i, i, i] as const);
