// A strict reader of one PDF dictionary (a trailer, a cross-reference stream's), token by token as qpdf
// reads one: hex strings hold only hex digits and whitespace and end with `>`, literal strings balance
// their parentheses, keys are names, every key has a value, and the dictionary ends with `>>`. pdf-lib
// reads past what breaks these rules; qpdf warns, loses the entry or the rest of the dictionary, and then
// refuses the file when it needs what it lost (the /Root, the /ID it checks as strings).
import { isPdfDelimiter as isDelimiter, isPdfHexDigit as isHexDigit, isPdfSpace as isSpace } from './lexical.js';

/** A value as far as the checks need it: numbers, references and names with what they say, the rest by kind. */
export type PdfValue =
  | { kind: 'number'; value: number; integer: boolean }
  | { kind: 'reference'; number: number; generation: number }
  | { kind: 'name'; name: string }
  | { kind: 'string' }
  | { kind: 'array'; items: PdfValue[] }
  | { kind: 'dictionary'; entries: Map<string, PdfValue> }
  | { kind: 'keyword'; word: 'true' | 'false' | 'null' };

export type PdfDictionaryRead = { entries: Map<string, PdfValue>; end: number } | { error: string; at: number };

/** Nesting a trailer never needs; deeper is refused rather than recursed into. */
const MAX_DEPTH = 32;

class Failure {
  constructor(
    readonly error: string,
    readonly at: number,
  ) {}
}

/** Reads the dictionary that starts (after whitespace and comments) at `offset`; `end` is the byte after its `>>`. */
export function readPdfDictionary(bytes: Uint8Array, offset: number): PdfDictionaryRead {
  const reader = new Reader(bytes, offset);
  try {
    reader.skipSpace();
    if (!reader.startsWith('<<')) return { error: 'no dictionary starts here', at: reader.at };
    const value = reader.value(0);
    if (value.kind !== 'dictionary') return { error: 'no dictionary starts here', at: offset };
    return { entries: value.entries, end: reader.at };
  } catch (failure) {
    if (failure instanceof Failure) return { error: failure.error, at: failure.at };
    throw failure;
  }
}

class Reader {
  constructor(
    private readonly bytes: Uint8Array,
    public at: number,
  ) {}

  startsWith(text: string): boolean {
    for (let i = 0; i < text.length; i++) if (this.bytes[this.at + i] !== text.charCodeAt(i)) return false;
    return true;
  }

  skipSpace(): void {
    for (;;) {
      while (isSpace(this.bytes[this.at])) this.at++;
      if (this.bytes[this.at] !== 0x25) return; // % comment, to the end of the line
      while (this.at < this.bytes.length && this.bytes[this.at] !== 10 && this.bytes[this.at] !== 13) this.at++;
    }
  }

  value(depth: number): PdfValue {
    if (depth > MAX_DEPTH) throw new Failure(`objects nested over ${MAX_DEPTH} deep`, this.at);
    this.skipSpace();
    const byte = this.bytes[this.at];
    if (byte === undefined) throw new Failure('the file ends inside the dictionary', this.at);
    if (this.startsWith('<<')) return this.dictionary(depth);
    if (byte === 0x3c) return this.hexString();
    if (byte === 0x28) return this.literalString();
    if (byte === 0x5b) return this.array(depth);
    if (byte === 0x2f) return { kind: 'name', name: this.name() };
    const word = this.word();
    if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(word)) return this.numberOrReference(word);
    if (word === 'true' || word === 'false' || word === 'null') return { kind: 'keyword', word };
    throw new Failure(
      word ? `unknown token ${JSON.stringify(word.slice(0, 20))}` : `unexpected ${String.fromCharCode(byte)}`,
      this.at,
    );
  }

  private dictionary(depth: number): PdfValue {
    this.at += 2;
    const entries = new Map<string, PdfValue>();
    for (;;) {
      this.skipSpace();
      if (this.startsWith('>>')) {
        this.at += 2;
        return { kind: 'dictionary', entries };
      }
      if (this.bytes[this.at] !== 0x2f) {
        if (this.at >= this.bytes.length) throw new Failure('the file ends inside the dictionary', this.at);
        throw new Failure('a dictionary key is not a name', this.at);
      }
      const key = this.name();
      this.skipSpace();
      if (this.startsWith('>>')) throw new Failure(`dictionary key /${key} has no value`, this.at);
      entries.set(key, this.value(depth + 1));
    }
  }

  private array(depth: number): PdfValue {
    this.at++;
    const items: PdfValue[] = [];
    for (;;) {
      this.skipSpace();
      if (this.bytes[this.at] === 0x5d) {
        this.at++;
        return { kind: 'array', items };
      }
      items.push(this.value(depth + 1));
    }
  }

  private hexString(): PdfValue {
    const start = this.at++;
    for (;;) {
      const byte = this.bytes[this.at++];
      if (byte === undefined) throw new Failure('a hex string is not terminated', start);
      if (byte === 0x3e) return { kind: 'string' };
      if (!isHexDigit(byte) && !isSpace(byte))
        throw new Failure(`a hex string holds ${JSON.stringify(String.fromCharCode(byte))}`, this.at - 1);
    }
  }

  private literalString(): PdfValue {
    const start = this.at++;
    let open = 1;
    for (;;) {
      const byte = this.bytes[this.at++];
      if (byte === undefined) throw new Failure('a string is not terminated', start);
      if (byte === 0x5c)
        this.at++; // backslash: the next byte is escaped
      else if (byte === 0x28) open++;
      else if (byte === 0x29 && --open === 0) return { kind: 'string' };
    }
  }

  private name(): string {
    this.at++; // the slash
    const start = this.at;
    while (this.at < this.bytes.length && !isSpace(this.bytes[this.at]) && !isDelimiter(this.bytes[this.at])) this.at++;
    return String.fromCharCode(...this.bytes.subarray(start, this.at));
  }

  /** A run of regular characters (a number or a keyword); empty at a delimiter. */
  private word(): string {
    const start = this.at;
    while (this.at < this.bytes.length && !isSpace(this.bytes[this.at]) && !isDelimiter(this.bytes[this.at])) this.at++;
    return String.fromCharCode(...this.bytes.subarray(start, Math.min(this.at, start + 64)));
  }

  /** `N G R` is a reference; any other number stands alone. */
  private numberOrReference(word: string): PdfValue {
    const integer = /^\d+$/.test(word);
    const value = Number(word);
    if (integer) {
      const back = this.at;
      this.skipSpace();
      const generation = this.word();
      if (/^\d+$/.test(generation)) {
        this.skipSpace();
        if (this.word() === 'R') return { kind: 'reference', number: value, generation: Number(generation) };
      }
      this.at = back;
    }
    return { kind: 'number', value, integer: /^[+-]?\d+$/.test(word) };
  }
}
