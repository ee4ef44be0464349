import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { probe as probeAny } from '../../probe.js';
import { MediaError } from '../../errors.js';
import { PDFParser } from 'pdf-lib';
import { pdf } from '../../../../../test/fixtures/make.js';
import { strictProblems } from '../../../../../test/support/strict-oracle.js';
import { failsWith } from '../../../../../test/support/typed-errors.js';

/** probe, narrowed to a PDF's facts. */
async function probe(bytes: Uint8Array) {
  const info = await probeAny(bytes);
  if (info.mediaType !== 'application/pdf') throw new Error(`expected a PDF, probe said ${info.mediaType}`);
  return info;
}

const fixture = (name: string) =>
  new Uint8Array(readFileSync(new URL(`../../../../../test/fixtures/${name}`, import.meta.url)));

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
    await failsWith(probe(good.subarray(0, Math.floor(good.length / 2))), MediaError, 'E_CORRUPT');
    await failsWith(probe(good.subarray(0, good.length - 1100)), MediaError, 'E_CORRUPT');
    await failsWith(
      probe(new TextEncoder().encode('%PDF-1.7\nthis is not a pdf body\n%%EOF\n')),
      MediaError,
      'E_CORRUPT',
    );
    await failsWith(
      probe(
        new TextEncoder().encode(
          '%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n',
        ),
      ),
      MediaError,
      'E_CORRUPT',
    );
    expect(warn).not.toHaveBeenCalled();
  });

  it('accepts a catalog without /Type (qpdf calls such files clean), and keeps pdf-lib internals out of messages', async () => {
    const info = await probe(handWrittenPdf({ catalog: '<< /Pages 2 0 R >>' }));
    expect(info).toMatchObject({ pages: 1, width: 200, height: 100 });
    const error = await failsWith(probe(handWrittenPdf({ catalog: '<< /Type /Catalog >>' })), MediaError, 'E_CORRUPT');
    expect(error.message).not.toMatch(/_this|is not a function|line|column|instance of/);
  });

  it('refuses out-of-range object counts from cheap facts, fast and silently (fuzz reproducers)', async () => {
    const warn = vi.spyOn(console, 'warn');
    const cases = [
      handWrittenPdf({ xrefStream: '/Index [0 4294967296]' }),
      handWrittenPdf({ xrefStream: '/Size 99999999999999999999' }),
      handWrittenPdf({ xrefStream: '/Index [0 1000000]' }), // within the cap, but 21 bytes cannot hold it
      handWrittenPdf({ objectStream: '4294967296' }),
      handWrittenPdf({ objectStream: '99999999999999999999' }),
    ];
    // Refused before pdf-lib parses anything: on these it loops for 20 s, or the process dies.
    const parse = vi.spyOn(PDFParser.prototype, 'parseDocument');
    for (const bytes of cases) await failsWith(probe(bytes), MediaError, 'E_CORRUPT');
    expect(parse).not.toHaveBeenCalled();
    parse.mockRestore();
    expect(handWrittenPdf({ xrefStream: '/Size 5 /Index [0 5]' }).length).toBeGreaterThan(0);
    expect((await probe(handWrittenPdf({ xrefStream: '/Size 5 /Index [0 5]' }))).pages).toBe(1);
    expect(warn).not.toHaveBeenCalled();
  });

  it('reads a classic trailer that names /Type /XRef as a trailer, not as a stream with no data (pdf.js issue14821.pdf)', async () => {
    // Written that way by some tool: qpdf calls it clean; it was refused as "declares 125 objects, more than
    // its 0 bytes of data can hold". Its /ID is binary, with a `>>` and a `)` inside (escaped).
    for (const trailer of ['/Type/XRef/DL 420', '/ID [(a>>b\\)c) (<d>)] /Type/XRef/DL 420']) {
      const bytes = handWrittenPdf({ trailer });
      expect(strictProblems(bytes, 'application/pdf')).toEqual([]);
      expect((await probe(bytes)).pages).toBe(1);
    }
    // A trailer still may not declare more objects than are read, and a stream still may not hold fewer bytes.
    await failsWith(probe(handWrittenPdf({ trailer: '/Type /XRef /Index [0 4294967296]' })), MediaError, 'E_CORRUPT');
    await failsWith(probe(handWrittenPdf({ xrefStream: '/ID [<ab>] /Index [0 1000000]' })), MediaError, 'E_CORRUPT');
  });

  it("keeps pdf-lib's console chatter (numbers too large) off the host's console, and forwards the host's own warnings", async () => {
    const warn = vi.spyOn(console, 'warn');
    const bytes = handWrittenPdf({ catalog: '<< /Type /Catalog /Pages 2 0 R /Huge 99999999999999999999 >>' });
    expect((await probe(bytes)).pages).toBe(1);
    expect(warn).not.toHaveBeenCalled();
    console.warn('host message');
    expect(warn).toHaveBeenCalledWith('host message');
  });

  it('loads pdf-lib only on demand (no static import in the image path)', () => {
    for (const file of ['../../probe.ts', '../../detect.ts', './probe.ts']) {
      const source = readFileSync(new URL(file, import.meta.url), 'utf8');
      expect(source).not.toMatch(/^import[^;]*from 'pdf-lib'/m);
    }
  });
});

/**
 * A one-page PDF written by hand with correct offsets: a classic xref table, or a cross-reference stream
 * (with `xrefStream` as extra dictionary entries), optionally with an object stream whose /N is `objectStream`.
 */
function handWrittenPdf({
  catalog = '<< /Type /Catalog /Pages 2 0 R >>',
  xrefStream,
  objectStream,
  trailer = '',
}: {
  catalog?: string;
  xrefStream?: string;
  objectStream?: string;
  /** Extra entries of the classic trailer, written before its /Size. */
  trailer?: string;
}): Uint8Array {
  let text = '%PDF-1.5\n';
  const offsets: number[] = [];
  const add = (body: string) => {
    offsets.push(text.length);
    text += `${offsets.length} 0 obj\n${body}\nendobj\n`;
  };
  add(catalog);
  add('<< /Type /Pages /Kids [3 0 R] /Count 1 >>');
  add('<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] >>');
  if (objectStream !== undefined)
    add(`<< /Type /ObjStm /N ${objectStream} /First 4 /Length 14 >>\nstream\n9 0 << /A 1 >>\nendstream`);
  const start = text.length;
  if (xrefStream === undefined) {
    text += `xref\n0 ${offsets.length + 1}\n0000000000 65535 f \n${offsets.map((at) => `${String(at).padStart(10, '0')} 00000 n \n`).join('')}`;
    text += `trailer\n<< /Root 1 0 R ${trailer} /Size ${offsets.length + 1} >>\nstartxref\n${start}\n%%EOF\n`;
    return new TextEncoder().encode(text);
  }
  const rows = [[0, 0, 255], ...offsets.map((at) => [1, at, 0]), [1, start, 0]];
  const entries = Uint8Array.from(
    rows.flatMap(([type = 0, at = 0, generation = 0]) => [type, at >> 8, at & 0xff, generation]),
  );
  const head = `${offsets.length + 1} 0 obj\n<< /Type /XRef ${xrefStream} /W [1 2 1] /Root 1 0 R /Length ${entries.length} >>\nstream\n`;
  const tail = `\nendstream\nendobj\nstartxref\n${start}\n%%EOF\n`;
  const encoder = new TextEncoder();
  return new Uint8Array([...encoder.encode(text + head), ...entries, ...encoder.encode(tail)]);
}
