import { describe, expect, it } from 'vitest';
import { ContentNumbers } from './content-numbers.js';

/** The integer past 64 bits that `content` holds, read in pieces of `piece` bytes. */
function tooLarge(content: string, piece = content.length || 1): string | undefined {
  const bytes = Uint8Array.from(content, (char) => char.charCodeAt(0));
  const numbers = new ContentNumbers();
  for (let at = 0; at < bytes.length; at += piece) numbers.push(bytes.subarray(at, at + piece));
  numbers.endStream();
  return numbers.tooLarge;
}

describe('ContentNumbers: integers past the 64-bit range in page content (qpdf --check: exit 2)', () => {
  it('takes the 64-bit extremes and refuses one past them, signed or not, leading zeros aside', () => {
    expect(tooLarge('9223372036854775807 w -9223372036854775808 w +9223372036854775807 w')).toBeUndefined();
    expect(tooLarge('0000000000000000000000000009223372036854775807 w')).toBeUndefined();
    expect(tooLarge('9223372036854775808 w')).toBe('9223372036854775808');
    expect(tooLarge('1 0 0 1 -9223372036854775809 0 cm')).toBe('-9223372036854775809');
    expect(tooLarge('+9223372036854775808 w')).toBe('9223372036854775808');
    expect(tooLarge(`${'1'.repeat(400)} w`)).toBe(`${'1'.repeat(24)}… (400 digits)`);
  });

  it('reads no numbers in reals, names, strings, comments, hex strings or inline image data', () => {
    expect(tooLarge('99999999999999999999.5 w 1.99999999999999999999 w')).toBeUndefined();
    expect(
      tooLarge('/F99999999999999999999 12 Tf (99999999999999999999 \\) (99999999999999999999)) Tj'),
    ).toBeUndefined();
    expect(tooLarge('% 99999999999999999999\n<99999999999999999999> Tj')).toBeUndefined();
    expect(tooLarge('BI /W 1 /H 1 /BPC 8 /CS /G ID 99999999999999999999 EI Q')).toBeUndefined();
    expect(tooLarge('BI /W 1 /H 1 ID \x01 EI 99999999999999999999 w')).toBe('99999999999999999999');
    expect(tooLarge('/P << /MCID 99999999999999999999 >> BDC')).toBe('99999999999999999999');
  });

  it('ends a hex string at a byte that is not hex, as qpdf does, and reads on', () => {
    expect(tooLarge('<4142 T* 99999999999999999999 w')).toBe('99999999999999999999');
  });

  it('reads the same in any pieces, and streams of a page as if joined by a line break', () => {
    const content = 'q 1 0 0 1 72 200 cm (a\\)b) Tj <41 42> Tj BI ID xx EI -99999999999999999999 w Q';
    for (const piece of [1, 2, 3, 7]) expect(tooLarge(content, piece)).toBe('-99999999999999999999');
    const numbers = new ContentNumbers();
    numbers.push(Uint8Array.from('1 w 9999999999', (char) => char.charCodeAt(0)));
    numbers.endStream();
    numbers.push(Uint8Array.from('9999999999 w', (char) => char.charCodeAt(0)));
    numbers.endStream();
    expect(numbers.tooLarge).toBeUndefined();
  });
});
