import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { probe as probeAny } from '../probe.js';
import { MediaError } from '../errors.js';
import { pdf } from '../../../../test/fixtures/make.js';

/** probe, narrowed to a PDF's facts. */
async function probe(bytes: Uint8Array) {
  const info = await probeAny(bytes);
  if (info.mediaType !== 'application/pdf') throw new Error(`expected a PDF, probe said ${info.mediaType}`);
  return info;
}

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../../../../test/fixtures/${name}`, import.meta.url)));

async function expectCode(bytes: Uint8Array, code: string): Promise<void> {
  const error = await probe(bytes).catch((caught: unknown) => caught);
  if (!(error instanceof MediaError)) throw new Error(`expected a MediaError ${code}, got ${String(error)}`);
  expect(error.code).toBe(code);
}

describe('probe: PDF', () => {
  afterEach(() => vi.restoreAllMocks());

  it('reads page count and the first page size in points', async () => {
    expect(await probe(await pdf({ pages: 3 }))).toEqual({
      mediaType: 'application/pdf',
      bytes: expect.any(Number),
      orientation: 1,
      frames: 1,
      pages: 3,
      encrypted: false,
      pageWidth: 612,
      pageHeight: 792,
      width: 612,
      height: 792,
    });
    const a4 = await probe(await pdf({ pageSize: [595.28, 841.89] }));
    expect([a4.pageWidth, a4.pageHeight, a4.width, a4.height]).toEqual([595.28, 841.89, 595, 842]);
  });

  it('reads a file with junk before %PDF- (readers allow up to 1024 bytes)', async () => {
    const good = await pdf({ pages: 2 });
    const junk = new TextEncoder().encode('From: scanner@example.com\r\nContent-Type: application/pdf\r\n\r\n');
    const prefixed = new Uint8Array(junk.length + good.length);
    prefixed.set(junk);
    prefixed.set(good, junk.length);
    expect((await probe(prefixed)).pages).toBe(2);
  });

  it('reports the first page as displayed when it is rotated', async () => {
    const turned = await probe(await pdf({ pageSize: [600, 400], rotate: 90 }));
    expect([turned.pageWidth, turned.pageHeight]).toEqual([400, 600]);
  });

  it('reports an /Encrypt trailer as encrypted (the caller refuses it)', async () => {
    const info = await probe(await pdf({ pages: 2, encrypted: true }));
    expect(info.encrypted).toBe(true);
    expect(info.pages).toBe(2);
  });

  it('reports real qpdf-encrypted files (AES-256 with a password, AES-128 without) as encrypted', async () => {
    // Both made with qpdf from a 2-page pdf-lib file, object streams on: `qpdf --object-streams=generate --encrypt secret owner 256 -- in out`.
    expect((await probe(fixture('encrypted-aes256-password.pdf'))).encrypted).toBe(true);
    expect((await probe(fixture('encrypted-aes128-no-password.pdf'))).encrypted).toBe(true);
  });

  it('refuses truncated, headerless-body and pageless files as E_CORRUPT without printing warnings', async () => {
    const warn = vi.spyOn(console, 'warn');
    const good = await pdf({ pages: 2 });
    await expectCode(good.subarray(0, Math.floor(good.length / 2)), 'E_CORRUPT');
    await expectCode(good.subarray(0, good.length - 1100), 'E_CORRUPT');
    await expectCode(new TextEncoder().encode('%PDF-1.7\nthis is not a pdf body\n%%EOF\n'), 'E_CORRUPT');
    await expectCode(new TextEncoder().encode('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n'), 'E_CORRUPT');
    expect(warn).not.toHaveBeenCalled();
  });

  it('loads pdf-lib only on demand (no static import in the image path)', () => {
    for (const file of ['../probe.ts', '../detect.ts', './pdf.ts']) {
      const source = readFileSync(new URL(file, import.meta.url), 'utf8');
      expect(source).not.toMatch(/^import[^;]*from 'pdf-lib'/m);
    }
  });
});
