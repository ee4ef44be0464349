// An encrypted PDF that opens without a password (issue 29 item 8): process still refuses it (providers refuse
// encrypted files), and the refusal names the calls that read it, which must then work on the same bytes.
// Files encrypted by qpdf, the oracle of what opens: `qpdf --encrypt "" owner 256 --` (AES-256, empty user
// password), the committed AES-128 one without a user password, and one with a user password.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lineOfText, textPdf } from '../../../../test/fixtures/pdf-documents.js';
import { failsWith } from '../../../../test/support/typed-errors.js';
import '../entries/node.js';
import { MediaError } from '../errors.js';
import { pdfText, renderPdfPage } from '../pdf-pages.js';
import { process } from '../process.js';

const fixture = (name: string) =>
  new Uint8Array(readFileSync(new URL(`../../../../test/fixtures/${name}`, import.meta.url)));

/** `bytes` encrypted by qpdf with this user password (owner password "owner"), AES-256. */
function qpdfEncrypted(bytes: Uint8Array, userPassword: string): Uint8Array {
  const folder = mkdtempSync(join(tmpdir(), 'glimpse-pdf-'));
  try {
    writeFileSync(join(folder, 'in.pdf'), bytes);
    execFileSync('qpdf', [
      '--encrypt',
      userPassword,
      'owner',
      '256',
      '--',
      join(folder, 'in.pdf'),
      join(folder, 'out.pdf'),
    ]);
    // The oracle: qpdf opens it with no password exactly when the user password is empty.
    const opens = (() => {
      try {
        execFileSync('qpdf', ['--check', join(folder, 'out.pdf')], { stdio: 'pipe' });
        return true;
      } catch {
        return false;
      }
    })();
    expect(opens).toBe(userPassword === '');
    return new Uint8Array(readFileSync(join(folder, 'out.pdf')));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

describe('encrypted PDFs sent to a PDF route', () => {
  it('names pdfText and renderPdfPage when it opens without a password, and both read it', async () => {
    const plain = await textPdf({ pages: 2, lines: 3 });
    for (const bytes of [qpdfEncrypted(plain, ''), fixture('encrypted-aes128-no-password.pdf')]) {
      const error = await failsWith(process(bytes, { preset: 'anthropic' }), MediaError, 'E_PDF_ENCRYPTED');
      expect(error.message).toMatch(/opens without a password/);
      expect(error.message).toMatch(/pdfText\(bytes\) and renderPdfPage\(bytes, page\)/);
      expect(error.message).toMatch(/as: "text" or as: "images"/);
      expect(error.details).toMatchObject({ opensWithoutPassword: true, readWith: ['pdfText', 'renderPdfPage'] });
      // The calls it names work on the same bytes.
      const page = await renderPdfPage(bytes, 1, { preset: 'anthropic' });
      expect(page.mediaType).toMatch(/^image\/(png|jpeg)$/);
      expect((await pdfText(bytes)).pageCount).toBeGreaterThan(0);
    }
    const text = await pdfText(qpdfEncrypted(plain, ''));
    expect(text.pages[0]?.text).toContain(lineOfText(0, 0));
  });

  it('says only "save an unencrypted copy" when a password is needed', async () => {
    for (const bytes of [
      qpdfEncrypted(await textPdf({ pages: 1 }), 'secret'),
      fixture('encrypted-aes256-password.pdf'),
    ]) {
      const error = await failsWith(process(bytes, { preset: 'anthropic' }), MediaError, 'E_PDF_ENCRYPTED');
      expect(error.message).toMatch(/Save an unencrypted copy/);
      expect(error.message).not.toMatch(/opens without a password|pdfText/);
      expect(error.details).toMatchObject({ opensWithoutPassword: false });
      await failsWith(pdfText(bytes), MediaError, 'E_PDF_ENCRYPTED');
    }
  });
});
