// What the CLI prints when it refuses: paths exactly as given (an option's name inside a file name is not an option),
// and advice a shell can follow — the command's own flags or another glimpse command, not library calls.
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import * as make from './fixtures/make.js';
import { runCli } from './support/run-cli.js';

let dir: string;
let photo: string;
let manyPages: string;
let report: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'glimpse-cli-hints-'));
  photo = join(dir, 'photo.png');
  await sharp({ create: { width: 2400, height: 1600, channels: 3, background: '#2a6' } })
    .png()
    .toFile(photo);
  const document = await PDFDocument.create();
  for (let page = 0; page < 1002; page++) document.addPage([200, 200]);
  manyPages = join(dir, 'many.pdf');
  await writeFile(manyPages, await document.save());
  report = join(dir, 'report.pdf');
  await writeFile(report, await make.pdf({ pages: 2 }));
});
afterAll(() => rm(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

const run = runCli;

/** A refusal: exit 1 and one JSON error line on stderr, with nothing on stdout. */
async function refused(...argv: string[]): Promise<{ code: string; message: string }> {
  const result = await run(...argv);
  expect(result.code, result.err).toBe(1);
  expect(result.out).toBe('');
  return JSON.parse(result.err.trim()).error;
}

describe('paths are printed as given', () => {
  it('a file named after a library option keeps its name (process, inspect, tiles, prepare, text, session)', async () => {
    const folder = join(dir, 'maxEdge');
    await mkdir(folder);
    const named = join(folder, 'maxBytes.png');
    await writeFile(named, await sharp(photo).toBuffer());
    const tooBig = await refused('process', named, '--max-file-bytes', '10');
    expect(tooBig.code).toBe('E_FILE_TOO_LARGE');
    expect(tooBig.message).toContain(`${named} is `);
    expect(tooBig.message).toContain('(--max-file-bytes)');
    for (const argv of [
      ['inspect', join(folder, 'timeoutMs.png')],
      ['tiles', join(folder, 'maxTiles.png'), '-o', join(dir, 't')],
      ['prepare', join(folder, 'maxTokens.png'), '--provider', 'anthropic'],
      ['text', join(folder, 'maxPages.pdf')],
      ['session', join(folder, 'maxInputPixels.jsonl')],
    ]) {
      const missing = await refused(...argv);
      expect(missing.code, argv.join(' ')).toBe('E_FILE_NOT_FOUND');
      expect(missing.message, argv.join(' ')).toContain(`No file at ${argv[1]}`);
      expect(missing.message).not.toContain('library option');
    }
  });
});

describe('relative paths are printed as typed, not made absolute', () => {
  it('a missing FILE (inspect, process, tiles, prepare, text, session) and a folder (inspect .)', async () => {
    const typed = relative(process.cwd(), join(dir, 'no-such.png'));
    expect(typed.startsWith('/')).toBe(false);
    for (const argv of [
      ['inspect', typed],
      ['process', typed, '-o', join(dir, 'out.png')],
      ['tiles', typed, '-o', join(dir, 't')],
      ['prepare', typed, '--provider', 'anthropic'],
      ['text', typed],
      ['session', typed],
    ]) {
      const missing = await refused(...argv);
      expect(missing.code, argv.join(' ')).toBe('E_FILE_NOT_FOUND');
      expect(missing.message, argv.join(' ')).toBe(`No file at ${typed}.`);
    }
    const folder = await refused('inspect', '.');
    expect(folder).toEqual({ code: 'E_NOT_A_FILE', message: '. is a directory, not a file.' });
  });
});

describe('page-limit hints name what each command offers', () => {
  it('text: over 1000 pages, read them in parts with --pages', async () => {
    const error = await refused('text', manyPages);
    expect(error.code).toBe('E_TOO_LARGE');
    expect(error.message).toBe(
      'Reading 1002 pages at once is over the limit of 1000. Read them in parts with --pages: --pages 1-1000, then --pages 1001-1002.',
    );
    // Following the hint works.
    const part = await run('text', manyPages, '--pages', '1001-1002');
    expect(part.code, part.err).toBe(0);
  });

  it('process: a PDF over the preset’s page limit is rendered a page at a time with --page N', async () => {
    const error = await refused('process', manyPages, '--preset', 'anthropic');
    expect(error.code).toBe('E_TOO_LARGE');
    expect(error.message).toMatch(/^The PDF has 1002 pages; the limit is 100\. /);
    expect(error.message).toContain('glimpse process FILE --page N');
    expect(error.message).not.toMatch(/page range/);
    const page = await run('process', manyPages, '--page', '1002', '--preset', 'anthropic');
    expect(page.code, page.err).toBe(0);
  });

  it('process: a PDF over --max-bytes names --page N and --max-bytes', async () => {
    const error = await refused('process', report, '--max-bytes', '100');
    expect(error.code).toBe('E_TOO_LARGE');
    expect(error.message).toMatch(/^The PDF is \d+ bytes; the limit is 100\. /);
    expect(error.message).toContain('--page N');
    expect(error.message).toContain('raise --max-bytes');
    expect(error.message).not.toMatch(/fewer pages/);
  });

  it('text: a --pages range past the end names the flag and the first missing page', async () => {
    for (const [range, first] of [
      ['5-9', 5],
      ['1-9', 3],
      ['2,4', 4],
      ['3-', 3],
      ['5-', 5],
    ] as const) {
      const error = await refused('text', report, '--pages', range);
      expect(error.code).toBe('E_INVALID_ARGUMENTS');
      expect(error.message).toMatch(
        new RegExp(`^--pages "${range}" asks for page ${first}, but the PDF has 2 pages\\.`),
      );
    }
  });
});

describe('tiles', () => {
  it('on a PDF: render the page with glimpse process FILE --page N, then tile that', async () => {
    const error = await refused('tiles', report, '-o', join(dir, 'pdf-tiles'));
    expect(error.code).toBe('E_INVALID_OPTIONS');
    expect(error.message).toContain('glimpse process FILE --page N -o page.png, then glimpse tiles page.png');
    expect(error.message).not.toMatch(/renderPdfPage/);
  });

  it('--max-tokens below the first tile: E_TOO_LARGE, nothing written, the tile’s tokens and what to do', async () => {
    const out = join(dir, 'over-budget');
    const error = await refused('tiles', photo, '-o', out, '--max-tokens', '1', '--model', 'claude-sonnet-5-5');
    expect(error.code).toBe('E_TOO_LARGE');
    // The price of the tile it would have made, from a run with room for it.
    const fits = await run(
      'tiles',
      photo,
      '-o',
      join(dir, 'within'),
      '--max-tokens',
      '100000',
      '--model',
      'claude-sonnet-5-5',
    );
    expect(fits.code, fits.err).toBe(0);
    const first = JSON.parse(fits.out).tiles[0].tokens as number;
    expect(error.message).toContain(`No tile fits --max-tokens 1: the first tile is about ${first} tokens`);
    expect(error.message).toContain(`Raise --max-tokens to at least ${first}`);
    expect(error.message).toContain('--region');
    await expect(readdir(out)).rejects.toMatchObject({ code: 'ENOENT' });
    // A budget of exactly the first tile makes that tile and no more.
    const one = await run(
      'tiles',
      photo,
      '-o',
      join(dir, 'one'),
      '--max-tokens',
      String(first),
      '--model',
      'claude-sonnet-5-5',
    );
    expect(one.code, one.err).toBe(0);
    const made = JSON.parse(one.out);
    expect(made.tiles).toHaveLength(1);
    expect(made.tokens).toBeLessThanOrEqual(first);
  });
});

describe('session', () => {
  it('a directory as LOCATION: its path, and glimpse session list DIR', async () => {
    const error = await refused('session', dir);
    expect(error.code).toBe('E_NOT_A_FILE');
    expect(error.message).toBe(
      `${dir} is a directory, not a session log. To see the sessions it holds (one JSONL log per session): glimpse session list ${dir}`,
    );
  });
});
