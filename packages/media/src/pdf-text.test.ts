import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MediaError, pdfText } from '@glimpse/media';
import * as make from '../../../test/fixtures/make.js';
import { lineOfText, scanPdf, textPdf, truncated } from '../../../test/fixtures/pdf-documents.js';
import { failsWith } from '../../../test/support/typed-errors.js';

const fixture = (name: string) =>
  new Uint8Array(readFileSync(new URL(`../../../test/fixtures/${name}`, import.meta.url)));

describe('pdfText', () => {
  it('returns each page’s text in order, lines ending with \\n', async () => {
    const text = await pdfText(await textPdf({ pages: 3, lines: 5 }));
    expect(text.pageCount).toBe(3);
    expect(text.pages.map((page) => page.page)).toEqual([1, 2, 3]);
    expect(text.pages[1]!.text).toBe(
      ['Chapter 2 heading', ...[0, 1, 2, 3, 4].map((line) => lineOfText(1, line))].join('\n'),
    );
    expect(text.pages.every((page) => !page.text.includes('\r'))).toBe(true);
  });

  it('reads only the pages asked for, in the order asked', async () => {
    const text = await pdfText(await textPdf({ pages: 5, lines: 1 }), { pages: [4, 2] });
    expect(text.pages.map((page) => [page.page, page.text.split('\n')[0]])).toEqual([
      [4, 'Chapter 4 heading'],
      [2, 'Chapter 2 heading'],
    ]);
  });

  it('reads text set in an embedded font', async () => {
    const text = await pdfText(await textPdf({ lines: 2, embedFont: true }));
    expect(text.pages[0]!.text).toBe(['Chapter 1 heading', lineOfText(0, 0), lineOfText(0, 1)].join('\n'));
  });

  it('gives an empty text for a scan without a text layer', async () => {
    expect((await pdfText(await scanPdf())).pages).toEqual([{ page: 1, text: '' }]);
  });

  it('reads all 300 pages of a long document', async () => {
    const text = await pdfText(await textPdf({ pages: 300, lines: 2 }));
    expect(text.pages).toHaveLength(300);
    expect(text.pages[299]!.text.startsWith('Chapter 300 heading\n')).toBe(true);
  });

  it('refuses more pages than maxPages, and pages that do not exist', async () => {
    const bytes = await textPdf({ pages: 3, lines: 1 });
    expect((await failsWith(pdfText(bytes, { maxPages: 2 }), MediaError)).code).toBe('E_TOO_LARGE');
    const missing = await failsWith(pdfText(bytes, { pages: [4] }), MediaError);
    expect(missing.code).toBe('E_INVALID_OPTIONS');
    expect(missing.message).toContain('the PDF has 3 pages');
    expect((await failsWith(pdfText(bytes, { pages: [0] }), MediaError)).code).toBe('E_INVALID_OPTIONS');
  });

  it('refuses a password-protected PDF with E_PDF_ENCRYPTED, and opens one encrypted without a user password', async () => {
    expect((await failsWith(pdfText(fixture('encrypted-aes256-password.pdf')), MediaError)).code).toBe(
      'E_PDF_ENCRYPTED',
    );
    const open = await pdfText(fixture('encrypted-aes128-no-password.pdf'));
    expect(open.pageCount).toBeGreaterThan(0);
  });

  it('refuses truncated, damaged and non-PDF input with typed errors', async () => {
    const bytes = await textPdf({ pages: 2 });
    expect((await failsWith(pdfText(truncated(bytes)), MediaError)).code).toBe('E_CORRUPT');
    const damaged = bytes.slice();
    damaged.fill(0x20, 20, damaged.length - 40); // header and %%EOF kept, everything between blanked
    expect((await failsWith(pdfText(damaged), MediaError)).code).toBe('E_CORRUPT');
    expect((await failsWith(pdfText(await make.photoJpeg()), MediaError)).code).toBe('E_UNSUPPORTED');
    expect((await failsWith(pdfText('%PDF' as unknown as Uint8Array), MediaError)).code).toBe('E_INVALID_INPUT');
  });

  it('stops with E_TIMEOUT when its time budget is spent', async () => {
    const error = await failsWith(pdfText(await textPdf({ pages: 300, lines: 40 }), { timeoutMs: 1 }), MediaError);
    expect(error.code).toBe('E_TIMEOUT');
  });
});
