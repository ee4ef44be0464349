import { MediaError } from '../errors.js';

/**
 * Bounds-checked reads over a header. Every read past the end throws `E_CORRUPT` naming the format,
 * so a truncated file can never surface as a RangeError or as `undefined` arithmetic.
 */
export class ByteReader {
  readonly bytes: Uint8Array;
  readonly format: string;
  private readonly view: DataView;

  constructor(bytes: Uint8Array, format: string) {
    this.bytes = bytes;
    this.format = format;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get length(): number {
    return this.bytes.length;
  }

  /** Throws unless `count` bytes are available at `offset`. */
  need(offset: number, count: number, what: string): void {
    if (offset < 0 || count < 0 || offset + count > this.bytes.length) {
      throw truncated(this.format, what, offset + count, this.bytes.length);
    }
  }

  u8(offset: number, what: string): number {
    this.need(offset, 1, what);
    return this.bytes[offset]!;
  }

  u16be(offset: number, what: string): number {
    this.need(offset, 2, what);
    return this.view.getUint16(offset, false);
  }

  u16le(offset: number, what: string): number {
    this.need(offset, 2, what);
    return this.view.getUint16(offset, true);
  }

  u24le(offset: number, what: string): number {
    this.need(offset, 3, what);
    return this.bytes[offset]! | (this.bytes[offset + 1]! << 8) | (this.bytes[offset + 2]! << 16);
  }

  u32be(offset: number, what: string): number {
    this.need(offset, 4, what);
    return this.view.getUint32(offset, false);
  }

  u32le(offset: number, what: string): number {
    this.need(offset, 4, what);
    return this.view.getUint32(offset, true);
  }

  i32le(offset: number, what: string): number {
    this.need(offset, 4, what);
    return this.view.getInt32(offset, true);
  }

  ascii(offset: number, count: number, what: string): string {
    this.need(offset, count, what);
    return asciiAt(this.bytes, offset, count);
  }
}

/** Latin-1 view of `count` bytes; out-of-range bytes simply shorten the string. */
export function asciiAt(bytes: Uint8Array, offset: number, count: number): string {
  let text = '';
  const end = Math.min(bytes.length, offset + count);
  for (let i = Math.max(0, offset); i < end; i++) text += String.fromCharCode(bytes[i]!);
  return text;
}

export function truncated(format: string, what: string, needed: number, length: number): MediaError {
  return new MediaError(
    'E_CORRUPT',
    `The ${format} file is truncated: reading its ${what} needs ${needed} bytes but the file has ${length}. ` +
      'The file is incomplete or damaged; re-export or re-download it.',
    { format, needed, length },
  );
}

export function corrupt(format: string, problem: string, details: Record<string, unknown> = {}): MediaError {
  return new MediaError(
    'E_CORRUPT',
    `The ${format} file is malformed: ${problem}. Re-export it from the original application.`,
    { format, ...details },
  );
}

/**
 * A chunk type or tag for an error message: quoted when it is printable ASCII, otherwise its bytes in hex,
 * so garbage from a damaged file never lands in a message (or a terminal) verbatim.
 */
export function describeTag(tag: string): string {
  if (/^[\x20-\x7e]*$/.test(tag)) return JSON.stringify(tag);
  return `with bytes ${Array.from(tag, (c) => c.charCodeAt(0).toString(16).padStart(2, '0')).join(' ')}`;
}

/** First offset in `[from, to)` where the ASCII `text` occurs, or -1. */
export function indexOfAscii(bytes: Uint8Array, text: string, from = 0, to = bytes.length): number {
  const first = text.charCodeAt(0);
  const last = Math.min(to, bytes.length) - text.length;
  outer: for (let i = Math.max(0, from); i <= last; i++) {
    if (bytes[i] !== first) continue;
    for (let j = 1; j < text.length; j++) if (bytes[i + j] !== text.charCodeAt(j)) continue outer;
    return i;
  }
  return -1;
}

/** Whether `bytes` begin with `prefix` (magic numbers). */
export function startsWithBytes(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((value, index) => bytes[index] === value);
}
