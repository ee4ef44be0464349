// The `glimpse inspect` and `glimpse process` contract: JSON on stdout, exit 0; one JSON error line on stderr,
// exit 1; usage on stderr, exit 2.
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from './support/run-cli.js';
import * as make from './fixtures/make.js';
import { lineOfText, scanPdf, textPdf } from './fixtures/pdf-documents.js';
import { decodeIndependently } from './support/pixels.js';

let dir: string;
let photo: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'glimpse-media-cli-'));
  photo = join(dir, 'photo.jpg');
  await writeFile(photo, await make.photoJpeg({ width: 2400, height: 1600, orientation: 6 }));
});

afterEach(() => vi.restoreAllMocks());

const run = runCli;

function oneErrorLine(stderr: string): { code: string; message: string } {
  const lines = stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]!).error;
}

describe('glimpse inspect', () => {
  it('prints the header facts as one JSON object', async () => {
    const { code, out } = await run('inspect', photo);
    expect(code).toBe(0);
    expect(JSON.parse(out)).toEqual({
      mediaType: 'image/jpeg',
      width: 2400,
      height: 1600,
      bytes: expect.any(Number),
      orientation: 6,
      frames: 1,
      hasAlpha: false,
    });
  });

  it('adds pages and encrypted for PDFs', async () => {
    const pdf = join(dir, 'doc.pdf');
    await writeFile(pdf, await make.pdf({ pages: 3 }));
    const { out } = await run('inspect', pdf);
    expect(JSON.parse(out)).toMatchObject({ mediaType: 'application/pdf', pages: 3, encrypted: false });
  });

  it('adds pages for TIFFs, the pages a scanner chains into one file', async () => {
    const tiff = join(dir, 'scan.tif');
    // ImageMagick (scripts/install-test-tools.sh) writes one page per image given.
    execFileSync('convert', ['-size', '40x30', 'xc:red', 'xc:green', 'xc:blue', tiff]);
    const { out } = await run('inspect', tiff);
    expect(JSON.parse(out)).toEqual({
      mediaType: 'image/tiff',
      width: 40,
      height: 30,
      bytes: expect.any(Number),
      orientation: 1,
      frames: 1,
      hasAlpha: false,
      pages: 3,
    });
  });
});

describe('glimpse process', () => {
  it('writes the fitted file and prints the summary', async () => {
    const target = join(dir, 'out.jpg');
    const { code, out } = await run('process', photo, '-o', target, '--max-edge', '800');
    expect(code).toBe(0);
    const summary = JSON.parse(out);
    expect(summary).toMatchObject({
      mediaType: 'image/jpeg',
      width: 533,
      height: 800,
      resized: true,
      reencoded: true,
      output: target,
      steps: ['oriented', 'resized'],
    });
    expect(summary.original).toMatchObject({ width: 2400, height: 1600, orientation: 6 });
    const written = await readFile(target);
    expect(written.byteLength).toBe(summary.bytes);
    expect((await decodeIndependently(new Uint8Array(written))).width).toBe(533);
  });

  it('honours --preset and --max-bytes, and --provider as the same option', async () => {
    const { out } = await run('process', photo, '--preset', 'anthropic', '--max-bytes', '40000');
    const summary = JSON.parse(out);
    expect(Math.max(summary.width, summary.height)).toBeLessThanOrEqual(1568);
    expect(summary.bytes).toBeLessThanOrEqual(40_000);
    const same = await run('process', photo, '--provider', 'anthropic', '--max-bytes', '40000');
    expect(JSON.parse(same.out)).toEqual(summary);
  });

  it('fails with one JSON error line and exit 1', async () => {
    const garbage = join(dir, 'garbage.png');
    await writeFile(garbage, make.garbage(300));
    const cases: Array<[string[], string]> = [
      [['process', garbage], 'E_UNSUPPORTED'],
      [['process', join(dir, 'missing.png')], 'E_FILE_NOT_FOUND'],
      [['process', dir], 'E_NOT_A_FILE'],
      [['process', photo, '--max-file-bytes', '1000'], 'E_FILE_TOO_LARGE'],
      [['process', photo, '--max-input-pixels', '1000'], 'E_TOO_MANY_PIXELS'],
      [['inspect', garbage], 'E_UNSUPPORTED'],
    ];
    for (const [argv, expected] of cases) {
      const { code, out, err } = await run(...argv);
      expect(code).toBe(1);
      expect(out).toBe('');
      expect(oneErrorLine(err).code).toBe(expected);
    }
  });

  it('says so when -o names a folder, and a missing folder is a different reason', async () => {
    const toFolder = await run('process', photo, '-o', dir);
    expect(toFolder.code).toBe(1);
    expect(oneErrorLine(toFolder.err)).toMatchObject({ code: 'E_NOT_A_FILE' });
    expect(oneErrorLine(toFolder.err).message).toContain('it is a folder: give -o a file name');
    const toMissing = await run('process', photo, '-o', join(dir, 'no-such-folder', 'out.jpg'));
    expect(toMissing.code).toBe(1);
    expect(oneErrorLine(toMissing.err).message).toContain('its folder is missing or not writable');
  });

  it('usage errors exit 2 with the usage; --help exits 0', async () => {
    for (const argv of [
      ['process'],
      ['process', photo, '--max-edge', '0'],
      ['process', photo, '--provider', 'nope'],
      ['process', photo, '--preset', 'nope'],
      ['process', photo, '--bogus'],
      ['inspect'],
    ]) {
      const { code, err } = await run(...argv);
      expect(code).toBe(2);
      expect(err).toMatch(/Usage: glimpse/);
    }
    const help = await run('process', '--help');
    expect(help.code).toBe(0);
    for (const flag of [
      '--output',
      '--max-edge',
      '--max-bytes',
      '--preset',
      '--provider',
      '--max-input-pixels',
      '--max-file-bytes',
    ])
      expect(help.out).toContain(flag);
  });
});

describe('glimpse text and glimpse process --page (PDFs read by PDFium)', () => {
  let book: string;
  beforeAll(async () => {
    book = join(dir, 'book.pdf');
    await writeFile(book, await textPdf({ pages: 4, lines: 2 }));
  });

  it('text prints every page, each ended by a form feed; --pages picks; --json gives the structure', async () => {
    const all = await run('text', book);
    expect(all.code).toBe(0);
    expect(all.out.split('\f')).toEqual([
      ...[1, 2, 3, 4].map(
        (page) => `Chapter ${page} heading\n${lineOfText(page - 1, 0)}\n${lineOfText(page - 1, 1)}\n`,
      ),
      '',
    ]);
    const some = await run('text', book, '--pages', '3-');
    expect(some.out.split('\f').map((page) => page.split('\n')[0])).toEqual([
      'Chapter 3 heading',
      'Chapter 4 heading',
      '',
    ]);
    const json = JSON.parse((await run('text', book, '--pages', '2', '--json')).out);
    expect(json).toEqual({
      pageCount: 4,
      pages: [{ page: 2, text: `Chapter 2 heading\n${lineOfText(1, 0)}\n${lineOfText(1, 1)}` }],
    });
  });

  it('text says on stderr which pages have no text layer', async () => {
    const scan = join(dir, 'scan.pdf');
    await writeFile(scan, await scanPdf({ width: 200, height: 260 }));
    const { code, out, err } = await run('text', scan);
    expect(code).toBe(0);
    expect(out).toBe('\f');
    expect(err).toContain(
      'page 1 of 1 has no text layer (a scan or a drawing); see it with glimpse process FILE --page N -o page.png',
    );
  });

  it('text fails with one JSON error line: password, not a PDF, a missing page', async () => {
    const locked = await run(
      'text',
      join(dirname(fileURLToPath(import.meta.url)), 'fixtures/encrypted-aes256-password.pdf'),
    );
    expect(locked.code).toBe(1);
    expect(oneErrorLine(locked.err).code).toBe('E_PDF_ENCRYPTED');
    expect(oneErrorLine((await run('text', photo)).err)).toMatchObject({
      code: 'E_UNSUPPORTED',
      message: expect.stringContaining('is image/jpeg: use glimpse process'),
    });
    expect(oneErrorLine((await run('text', book, '--pages', '9')).err).code).toBe('E_INVALID_ARGUMENTS');
    expect((await run('text')).code).toBe(2);
  });

  it('process --page N -o page.png renders that page fitted to the preset', async () => {
    const output = join(dir, 'page.png');
    const { code, out } = await run('process', book, '--page', '3', '--provider', 'ollama', '-o', output);
    expect(code).toBe(0);
    expect(JSON.parse(out)).toMatchObject({
      mediaType: 'image/png',
      width: 1039,
      height: 1344,
      page: 3,
      steps: ['rasterized'],
      original: { mediaType: 'application/pdf', pages: 4 },
      output,
    });
    const decoded = await decodeIndependently(new Uint8Array(await readFile(output)));
    expect([decoded.format, decoded.width, decoded.height]).toEqual(['png', 1039, 1344]);
    expect(oneErrorLine((await run('process', book, '--page', '5')).err).code).toBe('E_INVALID_OPTIONS');
  });

  it('--page on an image is a usage error naming its type; --timeout-ms applies to images too', async () => {
    const { code, err } = await run('process', photo, '--page', '1');
    expect(code).toBe(2);
    expect(err).toContain('is image/jpeg: leave out --page');
    // A 2400×1600 JPEG cannot be decoded and fitted in 1 ms: the budget reaches process().
    const late = await run('process', photo, '--timeout-ms', '1');
    expect(late.code).toBe(1);
    expect(oneErrorLine(late.err).code).toBe('E_TIMEOUT');
  });

  it('--font adds fonts for SVG text (given more than once); without one, stderr says what to do', async () => {
    const svg = join(dir, 'hello.svg');
    await writeFile(
      svg,
      '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="60"><rect width="200" height="60" fill="#fff"/><text x="4" y="40" font-size="30">你好</text></svg>',
    );
    const cjk = '/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf'; // scripts/install-test-tools.sh
    const dark = async (file: string) =>
      (await decodeIndependently(new Uint8Array(await readFile(file)))).data.filter((v, i) => i % 4 === 0 && v < 128)
        .length;
    const plain = await run('process', svg, '-o', join(dir, 'plain.png'), '--no-system-fonts');
    expect(JSON.parse(plain.out).warnings.map((w: { code: string }) => w.code)).toEqual(['W_MISSING_GLYPHS']);
    expect(plain.err).toContain('--font FILE');
    expect(await dark(join(dir, 'plain.png'))).toBe(0);
    // By default a system font that has the characters draws them (fontconfig finds DroidSansFallbackFull).
    const system = await run('process', svg, '-o', join(dir, 'system.png'));
    expect([system.code, JSON.parse(system.out).warnings, system.err]).toEqual([0, [], '']);
    expect(await dark(join(dir, 'system.png'))).toBeGreaterThan(50);
    const notFont = await run('process', svg, '--font', svg);
    expect([notFont.code, notFont.err]).toEqual([2, expect.stringContaining('is not a TTF, OTF or TTC font file')]);
    const drawn = await run('process', svg, '-o', join(dir, 'drawn.png'), '--font', cjk, '--font', cjk);
    expect(drawn.code).toBe(0);
    expect(JSON.parse(drawn.out).warnings).toEqual([]);
    expect(drawn.err).toBe('');
    expect(await dark(join(dir, 'drawn.png'))).toBeGreaterThan(50);
    // resvg's fallback stops at the first character no font has (Hangul): the kana after it is lost too, and
    // the warning says other characters may be missing.
    const mixed = join(dir, 'mixed.svg');
    await writeFile(mixed, (await readFile(svg, 'utf8')).replace('你好', '한국 テスト'));
    const partly = await run('process', mixed, '--font', cjk, '--no-system-fonts');
    expect(JSON.parse(partly.out).warnings).toEqual([
      {
        code: 'W_MISSING_GLYPHS',
        message: expect.stringContaining('no available font has Hangul characters, and other characters in the same'),
        scripts: ['Hangul'],
      },
    ]);
    const missing = await run('process', svg, '--font', join(dir, 'no-such-font.ttf'));
    expect([missing.code, oneErrorLine(missing.err).code]).toEqual([1, 'E_FILE_NOT_FOUND']);
  });
});
