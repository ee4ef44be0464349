import { readFile } from 'node:fs/promises';
import { patchCount } from '@glimpse/media';
import { describe, expect, it } from 'vitest';
import { lineOfText, scanPdf, textPdf } from '../../../../test/fixtures/pdf-documents.js';
import { decodeStrictly } from '../../../../test/support/wire-media.js';
import { bytesToBase64 } from '../base64.js';
import type { DocumentPart, Part } from '../types.js';
import { pdfAsTextAndPages } from './pdf-as-text-and-pages.js';

const document = (bytes: Uint8Array, filename = 'doc.pdf'): DocumentPart => ({
  type: 'document',
  mediaType: 'application/pdf',
  data: bytesToBase64(bytes),
  filename,
});
const text = (parts: Part[]) => parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
const images = (parts: Part[]) => parts.flatMap((part) => (part.type === 'image' ? [part] : []));

describe('pdfAsTextAndPages', () => {
  it('says the route takes no documents, then gives what view_file gives: text, and page images fitted to the preset', async () => {
    const parts = await pdfAsTextAndPages(document(await textPdf({ pages: 6, lines: 3 })), { provider: 'ollama' });
    expect(text(parts)).toMatch(
      /^\[doc\.pdf is given as its text and page images: this route takes no PDF documents\]\ndoc\.pdf: PDF, 6 pages/,
    );
    expect(text(parts)).toContain(lineOfText(5, 0));
    const pages = images(parts);
    expect(pages.length).toBeGreaterThan(0);
    for (const page of pages) {
      const decoded = await decodeStrictly(Buffer.from(page.data, 'base64'));
      expect([decoded.width, decoded.height]).toEqual([page.width, page.height]);
      expect(page.height).toBe(1344);
    }
  });

  it('names a scanned page and shows it as an image', async () => {
    const parts = await pdfAsTextAndPages(document(await scanPdf(), 'scan.pdf'), { provider: 'anthropic' });
    expect(text(parts)).toContain('no text layer');
    const [page, ...more] = images(parts);
    expect(more).toEqual([]);
    expect(page).toMatchObject({ mediaType: 'image/jpeg' });
    // Rendered within Claude's working size: 1,568 patches of 28 px, the long side as large as that allows.
    const { width = 0, height = 0 } = page ?? {};
    expect(patchCount({ width, height }, 28)).toBeLessThanOrEqual(1568);
    expect(patchCount({ width: width + 28, height: height + 28 }, 28)).toBeGreaterThan(1568);
  });

  it('turns an encrypted or damaged PDF into a note, never an exception', async () => {
    const encrypted = new Uint8Array(
      await readFile(new URL('../../../../test/fixtures/encrypted-aes256-password.pdf', import.meta.url)),
    );
    expect(text(await pdfAsTextAndPages(document(encrypted, 'secret.pdf')))).toMatch(
      /^\[could not attach secret\.pdf: .*\(E_PDF_ENCRYPTED\)/,
    );
    expect(await pdfAsTextAndPages({ type: 'document', mediaType: 'application/pdf', data: '%%%' })).toEqual([
      { type: 'text', text: expect.stringMatching(/could not attach the PDF: .*E_CORRUPT/) },
    ]);
  });
});
