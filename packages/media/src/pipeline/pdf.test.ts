// process(pdf, { pages }): the PDF of the chosen pages is what is sent, held to the strict oracle (qpdf --check,
// through the checked '@glimpse/media'), with poppler (pdfinfo, pdftotext) as the independent reader of what
// it holds: which pages, in which order, at which size and rotation.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFParser } from 'pdf-lib';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { MediaError, process as fit } from '@glimpse/media';
import * as make from '../../../../test/fixtures/make.js';
import { textPdf } from '../../../../test/fixtures/pdf-documents.js';
import { strictProblems } from '../../../../test/support/strict-oracle.js';
import { failsWith } from '../../../../test/support/typed-errors.js';

const folder = mkdtempSync(join(tmpdir(), 'glimpse-pdf-pages-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

function saved(bytes: Uint8Array): string {
  const path = join(folder, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(path, bytes);
  return path;
}

/** pdfinfo's facts of each page: its size in points and its rotation. */
function popplerPages(bytes: Uint8Array): { size: string; rotation: number }[] {
  const info = execFileSync('pdfinfo', ['-f', '1', '-l', '9999', saved(bytes)], { encoding: 'utf8' });
  const count = Number(/^Pages:\s+(\d+)$/m.exec(info)?.[1]);
  return Array.from({ length: count }, (_, index) => ({
    size: new RegExp(`^Page\\s+${index + 1} size:\\s+(.+?) pts`, 'm').exec(info)?.[1] ?? '',
    rotation: Number(new RegExp(`^Page\\s+${index + 1} rot:\\s+(\\d+)`, 'm').exec(info)?.[1]),
  }));
}

/** pdftotext's heading ("Chapter N heading") of each page, in order. */
function popplerHeadings(bytes: Uint8Array): string[] {
  const text = execFileSync('pdftotext', ['-enc', 'UTF-8', saved(bytes), '-'], { encoding: 'utf8' });
  return text
    .split('\f')
    .slice(0, -1)
    .map((page) => /Chapter \d+ heading/.exec(page)?.[0] ?? '(none)');
}

describe('process: pages of a PDF', () => {
  it("sends a PDF of the chosen pages alone, in the caller's order, that qpdf and poppler read", async () => {
    const input = await textPdf({ pages: 5, lines: 3 });
    const result = await fit(input, { pages: [4, 2] });
    expect(strictProblems(result.data, 'application/pdf')).toEqual([]);
    expect(popplerHeadings(result.data)).toEqual(['Chapter 4 heading', 'Chapter 2 heading']);
    expect(result).toMatchObject({
      mediaType: 'application/pdf',
      width: 612,
      height: 792,
      pages: 2,
      bytes: result.data.byteLength,
      reencoded: true,
      resized: false,
      steps: [],
      warnings: [],
      original: { mediaType: 'application/pdf', pages: 5, bytes: input.byteLength, width: 612, height: 792 },
    });
    expect(result.data.byteLength).toBeLessThan(input.byteLength);
  });

  it('keeps what each page inherits from the page tree: its box and its rotation', async () => {
    // Pages without boxes or /Rotate of their own, taking both from the tree node above them.
    const input = handWrittenTree();
    // pdfinfo gives the box as stored, and the rotation apart.
    expect(popplerPages(input)).toEqual([
      { size: '200 x 300', rotation: 90 },
      { size: '200 x 300', rotation: 90 },
      { size: '400 x 100', rotation: 0 },
    ]);
    const result = await fit(input, { pages: [3, 2] });
    expect(popplerPages(result.data)).toEqual([
      { size: '400 x 100', rotation: 0 },
      { size: '200 x 300', rotation: 90 },
    ]);
    expect(strictProblems(result.data, 'application/pdf')).toEqual([]);
    // The first page sent is the third of the file: its size, not the file's first (shown turned: 300×200).
    expect(result).toMatchObject({
      width: 400,
      height: 100,
      pages: 2,
      original: { pages: 3, width: 300, height: 200 },
    });
  });

  it('parses the file once: pdf-lib reads the source for the probe and the copy, and the copy for its checks', async () => {
    const input = await textPdf({ pages: 4, lines: 2 });
    const parse = vi.spyOn(PDFParser.prototype, 'parseDocument');
    await fit(input, { pages: [2] });
    expect(parse).toHaveBeenCalledTimes(2);
  });

  it('sends every page in order as the file itself, untouched', async () => {
    const input = await textPdf({ pages: 3, lines: 2 });
    const result = await fit(input, { pages: [1, 2, 3] });
    expect(result.data).toBe(input);
    expect(result).toMatchObject({ pages: 3, reencoded: false, original: { pages: 3 } });
    // Another order is a copy.
    expect((await fit(input, { pages: [3, 2, 1] })).reencoded).toBe(true);
  });

  it('refuses a page past the end with E_INVALID_OPTIONS naming the pages there are', async () => {
    const input = await textPdf({ pages: 5, lines: 2 });
    const error = await failsWith(fit(input, { pages: [2, 9, 7] }), MediaError, 'E_INVALID_OPTIONS');
    expect(error.details).toEqual({ pages: [2, 9, 7], pageCount: 5 });
    expect(error.message).toBe('Pages 9, 7 do not exist: the PDF has 5 pages. Choose from pages 1–5.');
    const single = await textPdf({ pages: 1, lines: 2 });
    const one = await failsWith(fit(single, { pages: [2] }), MediaError, 'E_INVALID_OPTIONS');
    expect(one.message).toBe('Page 2 does not exist: the PDF has 1 page. Choose page 1.');
  });

  it('refuses pages that are not page numbers, or repeat, and pages for anything but a PDF', async () => {
    const input = await textPdf({ pages: 3, lines: 2 });
    for (const pages of [[], [0], [1.5], [2, 2], [-1], [Number.NaN]]) {
      const error = await failsWith(fit(input, { pages }), MediaError, 'E_INVALID_OPTIONS');
      expect(error.details).toEqual({ option: 'pages' });
    }
    const photo = await make.photoJpeg();
    const error = await failsWith(fit(photo, { pages: [1] }), MediaError, 'E_INVALID_OPTIONS');
    expect(error.details).toEqual({ option: 'pages', mediaType: 'image/jpeg' });
  });

  it('holds the selection to the page and byte limits, as a whole PDF is held', async () => {
    const input = await textPdf({ pages: 6, lines: 30 });
    await failsWith(fit(input, { maxPdfPages: 2 }), MediaError, 'E_TOO_LARGE');
    const two = await fit(input, { maxPdfPages: 2, pages: [5, 6] });
    expect(two.pages).toBe(2);
    const three = await failsWith(fit(input, { maxPdfPages: 2, pages: [1, 3, 5] }), MediaError, 'E_TOO_LARGE');
    expect(three.details).toEqual({ pages: 3, maxPdfPages: 2 });
    // Over maxPdfBytes as a whole, within it as one page: the page goes.
    const onePage = await fit(input, { pages: [6] });
    const limit = Math.floor((onePage.bytes + input.byteLength) / 2);
    await failsWith(fit(input, { maxPdfBytes: limit }), MediaError, 'E_TOO_LARGE');
    expect((await fit(input, { maxPdfBytes: limit, pages: [6] })).bytes).toBe(onePage.bytes);
    const tooBig = await failsWith(
      fit(input, { maxPdfBytes: onePage.bytes - 1, pages: [6] }),
      MediaError,
      'E_TOO_LARGE',
    );
    expect(tooBig.details).toEqual({ bytes: onePage.bytes, maxPdfBytes: onePage.bytes - 1 });
  });

  it('refuses pages of an encrypted PDF as it refuses the whole one, and any PDF for a route without PDFs', async () => {
    const encrypted = new Uint8Array(
      readFileSync(new URL('../../../../test/fixtures/encrypted-aes256-password.pdf', import.meta.url)),
    );
    await failsWith(fit(encrypted, { pages: [1] }), MediaError, 'E_PDF_ENCRYPTED');
    await failsWith(fit(await textPdf({ pages: 2 }), { preset: 'ollama', pages: [1] }), MediaError, 'E_UNSUPPORTED');
  });
});

/**
 * Three pages under two tree nodes written by hand: the first node gives its two pages a 200×300 MediaBox and
 * /Rotate 90, the second its page a 400×100 MediaBox; no page states either itself (nor /Type, which readers
 * do not need).
 */
function handWrittenTree(): Uint8Array {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 3 >>',
    '<< /Type /Pages /Parent 2 0 R /Kids [5 0 R 6 0 R] /Count 2 /MediaBox [0 0 200 300] /Rotate 90 /Resources << /Font << /F1 8 0 R >> >> >>',
    '<< /Type /Pages /Parent 2 0 R /Kids [7 0 R] /Count 1 /MediaBox [0 0 400 100] /Resources << /Font << /F1 8 0 R >> >> >>',
    '<< /Parent 3 0 R /Contents 9 0 R >>',
    '<< /Parent 3 0 R /Contents 9 0 R >>',
    '<< /Parent 4 0 R /Contents 9 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    '<< /Length 34 >>\nstream\nBT /F1 12 Tf 10 10 Td (Hi) Tj ET\nendstream',
  ];
  let text = '%PDF-1.4\n';
  const offsets = objects.map((body, index) => {
    const at = text.length;
    text += `${index + 1} 0 obj\n${body}\nendobj\n`;
    return at;
  });
  const start = text.length;
  text += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((at) => `${String(at).padStart(10, '0')} 00000 n \n`).join('')}`;
  text += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${start}\n%%EOF\n`;
  return new TextEncoder().encode(text);
}
