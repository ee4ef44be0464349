// What glimpse sends of a PDF, held to qpdf --check (the strict oracle): the untouched file, or pdf-lib's
// re-saved copy when the cross-reference data is wrong. Each damage below was found by fuzzing (issue 11):
// pdf-lib read the file and its copy carried the damage to qpdf, which refused it (exit 2).
import { deflateSync } from 'node:zlib';
import { PDFParser, PDFWriter } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { MediaError, process as fit } from '@glimpse/media';
import { strictProblems } from '../../../../../test/support/strict-oracle.js';
import { failsWith } from '../../../../../test/support/typed-errors.js';

interface PdfParts {
  /** The page's content stream, and whether it is stored Flate-compressed (with `checksum` damaged if false). */
  content?: string;
  deflate?: boolean;
  checksum?: boolean;
  /** More entries for the page, the Info dictionary and the trailer; the font's generation. */
  page?: string;
  info?: string;
  trailer?: string;
  fontGeneration?: number;
  /** Kids of the page tree besides the one page. */
  kids?: string;
  /** startxref points 3 bytes past the table: qpdf rebuilds it, and glimpse re-saves the file. */
  startxrefOff?: boolean;
}

/** A one-page PDF with a correct cross-reference table, from its parts (latin1). */
function pdfFrom({
  content = 'BT /F1 12 Tf 10 10 Td (Hi) Tj ET',
  deflate = false,
  checksum = true,
  page = '',
  info = '',
  trailer = '',
  fontGeneration = 0,
  kids = '',
  startxrefOff = false,
}: PdfParts = {}): Uint8Array {
  let data = content;
  if (deflate) {
    const packed = deflateSync(Buffer.from(content, 'latin1'));
    if (!checksum) packed[packed.length - 1] = (packed[packed.length - 1] as number) ^ 0xff;
    data = packed.toString('latin1');
  }
  const objects: [number, string][] = [
    [0, '<< /Type /Catalog /Pages 2 0 R >>'],
    [0, `<< /Type /Pages /Kids [3 0 R${kids}] /Count 1 >>`],
    [
      0,
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Contents 4 0 R /Resources << /Font << /F1 5 ${fontGeneration} R >> >> ${page} >>`,
    ],
    [0, `<< /Length ${data.length}${deflate ? ' /Filter /FlateDecode' : ''} >>\nstream\n${data}\nendstream`],
    [fontGeneration, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'],
    [0, `<< /Title (t) ${info} >>`],
  ];
  let text = '%PDF-1.7\n';
  const entries: string[] = [];
  for (const [index, [generation, body]] of objects.entries()) {
    entries.push(`${String(text.length).padStart(10, '0')} ${String(generation).padStart(5, '0')} n \n`);
    text += `${index + 1} ${generation} obj\n${body}\nendobj\n`;
  }
  const xref = text.length;
  text += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${entries.join('')}`;
  text += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 6 0 R ${trailer} >>\n`;
  text += `startxref\n${xref + (startxrefOff ? 3 : 0)}\n%%EOF\n`;
  return Uint8Array.from(text, (char) => char.charCodeAt(0));
}

/** Whether qpdf --check refuses the file (exit 2; exit 3, warnings it recovered from, passes). */
function qpdfRefuses(bytes: Uint8Array): boolean {
  return strictProblems(bytes).some((problem) => problem.startsWith('qpdf refuses'));
}

/** The copy pdf-lib makes of the file, as glimpse made it before the copy was checked. */
async function pdfLibCopy(bytes: Uint8Array): Promise<Uint8Array> {
  const context = await PDFParser.forBytesWithOptions(bytes, Infinity, true, true).parseDocument();
  return PDFWriter.forContext(context, Infinity).serializeToBuffer();
}

/** `process` refuses the file with E_CORRUPT and a message that names `problem` and says what to do. */
async function refused(bytes: Uint8Array, problem: RegExp): Promise<void> {
  const { message } = await failsWith(fit(bytes), MediaError, 'E_CORRUPT');
  expect(message).toMatch(problem);
  expect(message).toMatch(/re-export it \(print to PDF\)/);
}

describe('what glimpse sends of a PDF passes qpdf --check', () => {
  it('sends a sound PDF untouched and a re-saved copy when only its startxref is wrong; both pass qpdf', async () => {
    const sound = pdfFrom({ content: '9223372036854775807 w -9223372036854775808 w', deflate: true });
    expect(qpdfRefuses(sound)).toBe(false);
    expect((await fit(sound)).data).toBe(sound);
    // References to no object (negative, or a generation past 2^31 - 1) are null to qpdf, which reads on.
    const dangling = pdfFrom({ page: '/X -1 0 R /Y 7 4294967296 R' });
    expect(qpdfRefuses(dangling)).toBe(false);
    expect((await fit(dangling)).data).toBe(dangling);
    const off = pdfFrom({ startxrefOff: true });
    const result = await fit(off);
    expect(result).toMatchObject({ reencoded: true, warnings: [{ code: 'W_REPAIRED' }] });
    expect(strictProblems(result.data)).toEqual([]);
  });

  it('refuses page content holding an integer past 64 bits: plain, Flate, or Flate with a wrong checksum', async () => {
    for (const parts of [
      { content: 'BT 99999999999999999999 0 Td ET' },
      { content: 'q -9223372036854775809 w Q', deflate: true },
      // zlib stops at the checksum; qpdf still reads every byte before it, and pako must hand them over too.
      { content: `q ${'0 0 m 10 10 l S '.repeat(5000)} 99999999999999999999 w Q`, deflate: true, checksum: false },
    ]) {
      for (const startxrefOff of [false, true]) {
        const damaged = pdfFrom({ ...parts, startxrefOff });
        expect(qpdfRefuses(damaged)).toBe(true);
        await refused(damaged, /page 1's content holds the integer -?\d{19,}, past the 64-bit range readers take/);
      }
    }
  });

  it('refuses objects whose numbers pdf-lib would write out where qpdf cannot read them', async () => {
    // A generation past 2^31 - 1: pdf-lib writes it into the copy's table, and qpdf gives up on the table.
    const generation = pdfFrom({ fontGeneration: 2147483648, startxrefOff: true });
    expect(qpdfRefuses(await pdfLibCopy(generation))).toBe(true);
    await refused(generation, /an object is numbered 5 2147483648, where readers take generations from 0 to 65535/);
    // A reference whose object number is not whole: pdf-lib reads `.5 0 R` as one, qpdf as junk in the trailer.
    const reference = pdfFrom({ trailer: '/Encrypt .5 0 R', startxrefOff: true });
    expect(qpdfRefuses(await pdfLibCopy(reference))).toBe(true);
    await refused(reference, /its trailer holds the reference 0\.5 0 R, which strict readers do not read as one/);
    // A negative number past 64 bits: pdf-lib caps only positive ones, and writes this one out in full.
    const negative = pdfFrom({ page: '/UserUnit -99999999999999999999', startxrefOff: true });
    await refused(negative, /object 3 0 holds the number -100000000000000000000, past the 64-bit range/);
  });

  it('refuses a hex string with a character that is not a hex digit, in the Info dictionary or the trailer /ID', async () => {
    const info = pdfFrom({ info: '/Author <FEFF00G1>', startxrefOff: true });
    await refused(info, /object 6 0 holds a hex string with "G" in it, which is not a hex digit/);
    const id = pdfFrom({ trailer: '/ID [<12G4> <12ab>]', startxrefOff: true });
    expect(qpdfRefuses(await pdfLibCopy(id))).toBe(true);
    await refused(id, /its trailer holds a hex string with "G" in it/);
  });

  it('refuses a page tree that lists object 0, which qpdf reads as null and fails on', async () => {
    const damaged = pdfFrom({ kids: ' 0 0 R' });
    expect(qpdfRefuses(damaged)).toBe(true);
    await refused(damaged, /object 2 0 lists 0 0 R among its page tree's \/Kids/);
  });

  it('reads a cross-reference stream dictionary as qpdf does: of a key written twice, the last wins', async () => {
    const pdf = pdfFrom();
    const text = new TextDecoder('latin1').decode(pdf);
    const xref = Number(/startxref\n(\d+)/.exec(text)?.[1]);
    const rows = [
      0,
      0,
      0,
      ...[...text.matchAll(/(\d{10}) 00000 n/g)].flatMap(([, at]) => [1, Number(at) >> 8, Number(at) & 0xff]),
    ];
    rows.push(1, xref >> 8, xref & 0xff); // the stream itself, object 7
    const data = deflateSync(Uint8Array.from(rows)).toString('latin1');
    const stream = (index: string) =>
      `7 0 obj\n<< /Type /XRef /Size 8 /Root 1 0 R /W [1 2 0] /Filter /FlateDecode /Length ${data.length}${index} >>\nstream\n${data}\nendstream\nendobj\n`;
    const build = (index: string) =>
      Uint8Array.from(`${text.slice(0, xref)}${stream(index)}startxref\n${xref}\n%%EOF\n`, (c) => c.charCodeAt(0));
    const sound = build('');
    expect(qpdfRefuses(sound)).toBe(false);
    expect((await fit(sound)).data).toBe(sound);
    const twice = build(' /Type [0 8]'); // a mutated /Index: the stream is no longer /Type /XRef to qpdf
    expect(qpdfRefuses(twice)).toBe(true);
    const result = await fit(twice);
    expect(result.warnings[0]?.message).toMatch(/not a cross-reference stream/);
    expect(strictProblems(result.data)).toEqual([]);
  });
});
