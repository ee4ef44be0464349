import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { MemoryFileSystem } from '../fs/memory-file-system.js';
import type { ToolResult } from '../types.js';
import { createReadTool } from './read.js';
import { textPdf, lineOfText } from '../../../../test/fixtures/pdf-documents.js';

function textOf(result: ToolResult): string {
  return result.parts.map((part) => (part.type === 'text' ? part.text : `<${part.type}>`)).join('\n');
}

const lines = `${Array.from({ length: 5000 }, (_, i) => `line ${i + 1}`).join('\n')}\n`;
let fileSystem: MemoryFileSystem;

beforeAll(async () => {
  const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#f00' } })
    .png()
    .toBuffer();
  const pdf = await PDFDocument.create();
  pdf.addPage([200, 200]);
  fileSystem = new MemoryFileSystem({
    cwd: '/w',
    files: {
      '/w/lines.txt': new TextEncoder().encode(lines),
      '/w/short.txt': new TextEncoder().encode('alpha\r\nbeta\r\ngamma'),
      '/w/long-line.txt': new TextEncoder().encode(`${'x'.repeat(5000)}\nok\n`),
      '/w/empty.txt': new Uint8Array(0),
      '/w/shot.png': new Uint8Array(png),
      '/w/doc.pdf': await pdf.save(),
      '/w/book.pdf': await textPdf({ pages: 3, lines: 2 }),
      '/w/logo.svg': new TextEncoder().encode(
        '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>',
      ),
      '/w/archive.zip': new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 0, 1, 2, 3]),
      '/w/blob.bin': new Uint8Array([0, 159, 146, 150, 0, 1, 2, 3, 4]),
      '/w/photo.tiff': new Uint8Array([0x49, 0x49, 0x2a, 0x00, 8, 0, 0, 0, 0, 0]),
      '/w/photo.heic': new Uint8Array([
        0,
        0,
        0,
        24,
        ...new TextEncoder().encode('ftypheic'),
        0,
        0,
        0,
        0,
        ...new TextEncoder().encode('mif1heic'),
      ]),
      '/w/photo.jxl': new Uint8Array([0xff, 0x0a, 0xfa, 0x7f, 0x01, 0x90, 0x08]),
      '/w/latin1.txt': new Uint8Array([
        ...new TextEncoder().encode('caf'),
        0xe9,
        0x0a,
        ...new TextEncoder().encode('plain text follows here and goes on'),
      ]),
    },
  });
});

describe('read', () => {
  it('numbers lines and pages through a long file with a note saying how to continue', async () => {
    const read = createReadTool({ fileSystem });
    const first = await read.execute({ path: 'lines.txt' });
    const text = textOf(first);
    expect(first.isError).toBe(false);
    expect(text.split('\n')[0]).toBe('   1\tline 1');
    expect(text).toContain('2000\tline 2000');
    expect(text).not.toContain('line 2001\n');
    expect(text).toContain('[Showing lines 1-2000 of 5000. Call read with offset=2001 to continue.]');
    const page = textOf(await read.execute({ path: 'lines.txt', offset: 4999, limit: 10 }));
    expect(page).toBe('4999\tline 4999\n5000\tline 5000');
  });

  it('accepts CRLF text and numbers from 1', async () => {
    const read = createReadTool({ fileSystem });
    expect(textOf(await read.execute({ path: '/w/short.txt' }))).toBe('1\talpha\n2\tbeta\n3\tgamma');
  });

  it('cuts long lines and the whole output, and says so', async () => {
    const read = createReadTool({ fileSystem, maxLineChars: 100, maxOutputChars: 20_000 });
    const cut = textOf(await read.execute({ path: 'long-line.txt' }));
    expect(cut).toContain(`1\t${'x'.repeat(100)}… [line cut: 5000 characters]`);
    expect(cut).toContain('2\tok');
    expect(cut).toContain('1 line(s) longer than 100 characters were cut');
    const capped = textOf(await read.execute({ path: 'lines.txt' }));
    expect(capped.length).toBeLessThan(20_200);
    const lastShown = Number(/Showing lines 1-(\d+) of 5000/.exec(capped)?.[1]);
    expect(lastShown).toBeGreaterThan(1000);
    expect(capped).toContain(`offset=${lastShown + 1}`);
  });

  it('points every format view_file can show (SVG, TIFF, HEIC too) at it in one line', async () => {
    const read = createReadTool({ fileSystem });
    for (const [path, label] of [
      ['shot.png', 'PNG image'],
      ['logo.svg', 'SVG image'],
      ['photo.tiff', 'TIFF image'],
      ['photo.heic', 'HEIC image'],
    ]) {
      const result = await read.execute({ path });
      expect(result.isError).toBe(false);
      const text = textOf(result);
      expect(text.split('\n')).toHaveLength(1);
      expect(text).toContain(label);
      expect(text).toContain('view_file');
    }
  });

  it('reads a PDF as its text, each page marked, paged like a text file', async () => {
    const read = createReadTool({ fileSystem });
    const whole = await read.execute({ path: 'book.pdf' });
    expect(whole.isError).toBe(false);
    expect(textOf(whole)).toBe(
      [1, 2, 3]
        .flatMap((page) => [
          `--- page ${page} of 3 ---`,
          `Chapter ${page} heading`,
          lineOfText(page - 1, 0),
          lineOfText(page - 1, 1),
        ])
        .map((line, i) => `${String(i + 1).padStart(2)}\t${line}`)
        .join('\n'),
    );
    expect(textOf(await read.execute({ path: 'book.pdf', offset: 5, limit: 2 }))).toBe(
      `5\t--- page 2 of 3 ---\n6\tChapter 2 heading\n[Showing lines 5-6 of 12. Call read with offset=7 to continue.]`,
    );
    expect(textOf(await read.execute({ path: 'doc.pdf' }))).toContain(
      '2\t(no text layer on this page: a scan or a drawing; view_file with as: "images" shows it)',
    );
  });

  it('describes other binaries by type and size, never dumping them', async () => {
    const read = createReadTool({ fileSystem });
    expect(textOf(await read.execute({ path: 'archive.zip' }))).toBe(
      'archive.zip is a ZIP archive (also .docx, .xlsx, .jar, …), 11 bytes; its bytes are not shown as text.',
    );
    expect(textOf(await read.execute({ path: 'blob.bin' }))).toBe(
      'blob.bin is a binary file of unknown type, 9 bytes; its bytes are not shown as text.',
    );
    expect(textOf(await read.execute({ path: 'photo.jxl' }))).toBe(
      'photo.jxl is a JPEG XL image (a format view_file cannot show), 7 bytes; its bytes are not shown as text.',
    );
  });

  it('shows text with a stray Latin-1 byte, and reports empty files', async () => {
    const read = createReadTool({ fileSystem });
    expect(textOf(await read.execute({ path: 'latin1.txt' }))).toBe(
      '1\tcaf\uFFFD\n2\tplain text follows here and goes on',
    );
    expect(textOf(await read.execute({ path: 'empty.txt' }))).toBe('(empty file)');
  });

  it('turns failures into error results that say what to do', async () => {
    const read = createReadTool({ fileSystem, maxFileBytes: 1000 });
    const tooLarge = await read.execute({ path: 'lines.txt' });
    expect(tooLarge.isError).toBe(true);
    expect(textOf(tooLarge)).toMatch(/^E_FILE_TOO_LARGE: .*over the 1000-byte read limit/);
    expect(textOf(await read.execute({ path: 'missing.txt' }))).toMatch(/^E_FILE_NOT_FOUND/);
    expect(textOf(await read.execute({ path: 'lines.txt', offset: 0 }))).toMatch(
      /^E_INVALID_ARGUMENTS: read needs "offset" as a whole number/,
    );
    expect(textOf(await read.execute({}))).toMatch(/^E_INVALID_ARGUMENTS/);
    expect(textOf(await read.execute({ path: 'short.txt', offset: 10 }))).toContain('offset 10 is past its end');
  });
});
