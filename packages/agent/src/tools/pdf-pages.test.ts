import { PDFDocument } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { throwsWith } from '../../../../test/support/typed-errors.js';
import { FileError } from '../fs/file-error.js';
import { parsePageRange, pdfPageCount } from './pdf-pages.js';

let fivePages: Uint8Array;
beforeAll(async () => {
  const pdf = await PDFDocument.create();
  for (let i = 1; i <= 5; i++) pdf.addPage([100 + i, 200]);
  fivePages = await pdf.save();
});

describe('parsePageRange', () => {
  it('reads single pages, ranges and open ranges as page numbers from 1, in order, once each', () => {
    expect(parsePageRange('2, 4-', 5)).toEqual([2, 4, 5]);
    expect(parsePageRange('3,1-3', 5)).toEqual([3, 1, 2]);
  });

  it('refuses what is not a range, and pages past the end, saying what to give', () => {
    const past = throwsWith(() => parsePageRange('4-9', 5), FileError, 'E_INVALID_ARGUMENTS');
    expect(past.message).toBe(
      'pages "4-9" asks for page 6, but the PDF has 5 pages. Give pages like "1-3" or "2,5-7" within 1-5.',
    );
    for (const [range, first] of [
      ['6-', 6],
      ['9-', 9],
    ] as const) {
      const open = throwsWith(() => parsePageRange(range, 5), FileError, 'E_INVALID_ARGUMENTS');
      expect(open.message).toMatch(new RegExp(`^pages "${range}" asks for page ${first}, but the PDF has 5 pages\\.`));
    }
    expect(parsePageRange('5-', 5)).toEqual([5]);
    throwsWith(() => parsePageRange('two', 5), FileError, 'E_INVALID_ARGUMENTS');
    throwsWith(() => parsePageRange('3-1', 5), FileError, 'E_INVALID_ARGUMENTS');
  });
});

describe('pdfPageCount', () => {
  it('counts pages, and has no count for bytes that are not a whole PDF', async () => {
    expect(await pdfPageCount(fivePages)).toBe(5);
    expect(await pdfPageCount(fivePages.slice(0, 40))).toBeUndefined();
  });
});
