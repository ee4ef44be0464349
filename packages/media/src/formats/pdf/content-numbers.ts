// The integers of a page's content streams, read token by token as qpdf --check reads them: it parses every
// page's content and refuses the file (exit 2, "overflow/underflow converting … to 64-bit integer") when an
// integer does not fit a signed 64-bit int. pdf-lib copies content streams byte for byte, so an untouched file
// and a re-saved copy carry the same ones. Reals are kept as text by qpdf and never refused; strings, comments,
// names and inline image data hold no numbers. Fed in chunks as they inflate, never copied.

import { PDF_BYTE_CLASS as CLASS, PDF_HEX_DIGIT as HEX } from './lexical.js';

/** Where the reader is: between tokens, in a word (a number, keyword or name), a comment, a string, inline image data. */
const State = { Between: 0, Word: 1, Comment: 2, Literal: 3, AngleOpen: 4, Hex: 5, InlineImage: 6 } as const;
type State = (typeof State)[keyof typeof State];

/** The largest magnitudes of a signed 64-bit int, positive and negative, as digits. */
const MAX_POSITIVE = '9223372036854775807';
const MAX_NEGATIVE = '9223372036854775808';
/** Digits kept of an integer for the message (and the comparison, which needs 19). */
const KEPT_DIGITS = 24;

export class ContentNumbers {
  private state: State = State.Between;
  /** The integer found past the 64-bit range (as written, shortened), once one is. */
  tooLarge: string | undefined;

  // The word being read: its length and first two bytes, whether it can still be an integer, its sign, and
  // its digits after leading zeros (the first KEPT_DIGITS of them kept).
  private length = 0;
  private first = 0;
  private second = 0;
  private integer = true;
  private negative = false;
  private significant = 0;
  private readonly digits = new Uint8Array(KEPT_DIGITS);
  private literalDepth = 0;
  private escaped = false;
  /** Inline image data ends at white-space, `EI`, then white-space or a delimiter: how much of that is seen. */
  private endSeen = 0;

  /**
   * Reads `bytes`, the next part of the page's content. Each state runs over its bytes in a loop of its own
   * (most content is numbers, operators and hex strings): about 4 ns a byte, a third of inflating them.
   */
  push(bytes: Uint8Array): void {
    const end = bytes.length;
    let at = 0;
    while (at < end && this.tooLarge === undefined) {
      switch (this.state) {
        case State.Between: {
          let byte = bytes[at] as number;
          while (CLASS[byte] === 1 && ++at < end) byte = bytes[at] as number;
          if (at === end) break;
          if (CLASS[byte] === 0) this.startWord(false);
          else {
            at++;
            if (byte === 0x25) this.state = State.Comment;
            else if (byte === 0x28) {
              this.state = State.Literal;
              this.literalDepth = 1;
              this.escaped = false;
            } else if (byte === 0x3c) this.state = State.AngleOpen;
            else if (byte === 0x2f) this.startWord(true); // a name: a word that is never a number nor `ID`
          }
          break;
        }
        case State.Word:
          at = this.word(bytes, at);
          if (at < end && this.endWord()) at++; // inline image data follows `ID` and the byte after it
          break;
        case State.Comment:
          while (at < end && bytes[at] !== 10 && bytes[at] !== 13) at++;
          if (at < end) this.state = State.Between;
          break;
        case State.Literal:
          at = this.literal(bytes, at);
          break;
        case State.AngleOpen:
          // `<<` opens a dictionary; anything else is inside a hex string.
          if (bytes[at] === 0x3c) {
            this.state = State.Between;
            at++;
          } else this.state = State.Hex;
          break;
        case State.Hex: {
          // It ends at `>`, or (as qpdf reads it, a broken token) at a byte neither hex nor white-space.
          let byte = bytes[at] as number;
          while ((HEX[byte] === 1 || CLASS[byte] === 1) && ++at < end) byte = bytes[at] as number;
          if (at < end) {
            this.state = State.Between;
            at++;
          }
          break;
        }
        case State.InlineImage:
          at = this.inlineImage(bytes, at);
          break;
      }
    }
  }

  /** The end of one content stream of the page: streams are read as if joined by a line break, as qpdf does. */
  endStream(): void {
    this.push(LINE_BREAK);
  }

  private startWord(name: boolean): void {
    this.state = State.Word;
    this.length = name ? 3 : 0;
    this.integer = !name;
    this.negative = false;
    this.significant = 0;
  }

  /** Reads the word's bytes from `at`; returns where it stopped (the end of the bytes, or the byte after the word). */
  private word(bytes: Uint8Array, from: number): number {
    let at = from;
    if (this.length < 2) {
      for (; at < bytes.length && this.length < 2 && CLASS[bytes[at] as number] === 0; at++) {
        if (this.length++ === 0) this.first = bytes[at] as number;
        else this.second = bytes[at] as number;
        this.digit(bytes[at] as number, this.length === 1);
      }
    }
    // Past the first two bytes, locals: most words are numbers and operators a few bytes long.
    let { integer, significant } = this;
    const start = at;
    for (; at < bytes.length; at++) {
      const byte = bytes[at] as number;
      if (CLASS[byte] !== 0) break;
      if (!integer) continue;
      if (byte >= 0x30 && byte <= 0x39) {
        if (byte === 0x30 && significant === 0) continue; // leading zeros do not count
        if (significant < KEPT_DIGITS) this.digits[significant] = byte;
        significant++;
      } else integer = false;
    }
    this.length += at - start;
    this.integer = integer;
    this.significant = significant;
    return at;
  }

  /** One of the word's first two bytes: a sign may lead. */
  private digit(byte: number, first: boolean): void {
    if (!this.integer) return;
    if (byte >= 0x30 && byte <= 0x39) {
      if (byte === 0x30 && this.significant === 0) return;
      this.digits[this.significant++] = byte;
    } else if ((byte === 0x2b || byte === 0x2d) && first) this.negative = byte === 0x2d;
    else this.integer = false;
  }

  /** Judges the word just read; true when it is `ID`, the start of inline image data. */
  private endWord(): boolean {
    this.state = State.Between;
    if (this.length === 2 && this.first === 0x49 && this.second === 0x44) {
      this.state = State.InlineImage;
      this.endSeen = 0;
      return true;
    }
    if (!this.integer || this.significant < MAX_POSITIVE.length) return false;
    const limit = this.negative ? MAX_NEGATIVE : MAX_POSITIVE;
    let over = this.significant > limit.length;
    for (let i = 0; !over && i < limit.length; i++) {
      const difference = (this.digits[i] as number) - limit.charCodeAt(i);
      if (difference !== 0) {
        over = difference > 0;
        break;
      }
    }
    if (!over) return false;
    const shown = String.fromCharCode(...this.digits.subarray(0, Math.min(this.significant, KEPT_DIGITS)));
    const more = this.significant > KEPT_DIGITS ? `… (${this.significant} digits)` : '';
    this.tooLarge = `${this.negative ? '-' : ''}${shown}${more}`;
    return false;
  }

  /** Reads a literal string's bytes from `at` (nested parentheses, backslash escapes) to its end or the bytes'. */
  private literal(bytes: Uint8Array, from: number): number {
    for (let at = from; at < bytes.length; at++) {
      const byte = bytes[at];
      if (this.escaped) this.escaped = false;
      else if (byte === 0x5c) this.escaped = true;
      else if (byte === 0x28) this.literalDepth++;
      else if (byte === 0x29 && --this.literalDepth === 0) {
        this.state = State.Between;
        return at + 1;
      }
    }
    return bytes.length;
  }

  /** Skips inline image data to `EI` between white-space (or a delimiter after it); reads on from that byte. */
  private inlineImage(bytes: Uint8Array, from: number): number {
    for (let at = from; at < bytes.length; at++) {
      const byte = bytes[at] as number;
      const kind = CLASS[byte];
      if (this.endSeen === 3 && kind !== 0) {
        this.state = State.Between;
        return at;
      }
      if (kind === 1) this.endSeen = 1;
      else if (this.endSeen === 1 && byte === 0x45) this.endSeen = 2;
      else if (this.endSeen === 2 && byte === 0x49) this.endSeen = 3;
      else this.endSeen = 0;
    }
    return bytes.length;
  }
}

const LINE_BREAK = Uint8Array.of(10);
