// The CLI's error JSON names flags, not library options: media's messages say `raise timeoutMs`, `Raise maxBytes`,
// `raise maxInputPixels` for a developer calling process(); at a shell only flags can be passed. Each refusal whose
// message names a limit is triggered through the CLI, and every flag its printed message names is one the
// command's own --help lists.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cliErrorMessage } from '../packages/agent/src/cli/cli-error-hint.js';
import { runCli } from './support/run-cli.js';

let dir: string;
let photo: string;
let noisy: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'glimpse-cli-error-flags-'));
  photo = join(dir, 'photo.png');
  await sharp({ create: { width: 1600, height: 1000, channels: 3, background: '#2a6' } })
    .png()
    .toFile(photo);
  // Noise does not compress: no encoding of it fits a few hundred bytes.
  noisy = join(dir, 'noisy.png');
  const pixels = Buffer.alloc(2000 * 1500 * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 2654435761) >>> 24;
  await sharp(pixels, { raw: { width: 2000, height: 1500, channels: 3 } })
    .png()
    .toFile(noisy);
});
afterAll(() => rm(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

const run = runCli;

/** The library option names media's and the file seam's messages use for a limit. */
const OPTIONS = /\b(timeoutMs|maxBytes|maxEdge|maxInputPixels|maxFileBytes|maxResultBytes|maxTokens|maxTiles)\b/;

/** Runs a refusal; its error JSON's message names `flag`, no library option, and every flag it names is in --help. */
async function refusedWithFlag(argv: string[], code: string, flag: string): Promise<string> {
  const failed = await run(...argv);
  expect(failed.code, argv.join(' ')).toBe(1);
  const { error } = JSON.parse(failed.err.trim());
  expect(error.code, error.message).toBe(code);
  expect(error.message).toContain(flag);
  expect(error.message).not.toMatch(OPTIONS);
  const help = await run(argv[0]!, '--help');
  expect(help.code).toBe(0);
  const listed = new Set(help.out.match(/--[a-z][a-z-]*/g));
  for (const named of error.message.match(/--[a-z][a-z-]*/g) ?? [])
    expect(listed, `${argv[0]} --help`).toContain(named);
  return error.message;
}

describe('CLI error messages name the command’s flags', () => {
  it('E_TIMEOUT: raise --timeout-ms (process)', async () => {
    const message = await refusedWithFlag(
      ['process', noisy, '-o', join(dir, 'out.png'), '--timeout-ms', '1'],
      'E_TIMEOUT',
      '--timeout-ms',
    );
    expect(message).toMatch(/raise --timeout-ms if it is trusted/);
  });

  it('E_TOO_LARGE: raise --max-bytes (process)', async () => {
    const message = await refusedWithFlag(
      ['process', noisy, '-o', join(dir, 'out.png'), '--max-bytes', '50'],
      'E_TOO_LARGE',
      '--max-bytes',
    );
    expect(message).toMatch(/Raise --max-bytes or send a smaller image/);
  });

  it('E_TOO_COMPLEX: an SVG whose filters are too much work, a lower --max-edge (process)', async () => {
    const svg = join(dir, 'blurs.svg');
    const rects = Array.from(
      { length: 40 },
      (_, i) =>
        `<rect x="${i * 10}" y="${i * 10}" width="1500" height="1500" fill="#${(i * 5 + 16).toString(16)}a" filter="url(#b)"/>`,
    ).join('');
    await writeFile(
      svg,
      `<svg xmlns="http://www.w3.org/2000/svg" width="2000" height="2000"><filter id="b"><feGaussianBlur stdDeviation="80"/></filter>${rects}</svg>`,
    );
    const message = await refusedWithFlag(
      ['process', svg, '-o', join(dir, 'blurs.png')],
      'E_TOO_COMPLEX',
      '--max-edge',
    );
    expect(message).toMatch(/a lower --max-edge renders fewer pixels/);
  });

  it('E_TOO_MANY_PIXELS: raise --max-input-pixels, named once (process, tiles)', async () => {
    for (const argv of [
      ['process', photo, '-o', join(dir, 'out.png')],
      ['tiles', photo, '-o', join(dir, 'tiles')],
    ]) {
      const message = await refusedWithFlag(
        [...argv, '--max-input-pixels', '1000'],
        'E_TOO_MANY_PIXELS',
        '--max-input-pixels',
      );
      expect(message.match(/--max-input-pixels/g)).toHaveLength(1);
    }
  });

  it('E_FILE_TOO_LARGE: raise --max-file-bytes, named once (process, inspect, tiles, prepare)', async () => {
    for (const argv of [
      ['process', photo, '-o', join(dir, 'out.png')],
      ['inspect', photo],
      ['tiles', photo, '-o', join(dir, 'tiles')],
      ['prepare', photo, '--provider', 'anthropic'],
    ]) {
      const message = await refusedWithFlag(
        [...argv, '--max-file-bytes', '100'],
        'E_FILE_TOO_LARGE',
        '--max-file-bytes',
      );
      expect(message).toMatch(/raise the limit \(--max-file-bytes\)/);
    }
  });
});

describe('CLI error messages name settings by their flags', () => {
  /** A HEIC that is only an image sequence (a `moov` box, no `meta`): refused from its header, no decoder needed. */
  async function heicAnimation(): Promise<string> {
    const box = (type: string, body: Buffer) => {
      const size = Buffer.alloc(4);
      size.writeUInt32BE(8 + body.length);
      return Buffer.concat([size, Buffer.from(type, 'latin1'), body]);
    };
    const file = join(dir, 'anim.heic');
    await writeFile(
      file,
      Buffer.concat([box('ftyp', Buffer.from('heic\0\0\0\0mif1heic', 'latin1')), box('moov', Buffer.alloc(0))]),
    );
    return file;
  }

  for (const [argv, flag] of [
    [['process', '-o', 'out.png'], '(--preset gemini)'],
    [['inspect'], '(glimpse process --preset gemini)'],
  ] as const) {
    it(`E_UNSUPPORTED from glimpse ${argv[0]} names the preset that takes HEIC as ${flag}`, async () => {
      const [command, ...rest] = argv;
      const failed = await run(
        command,
        await heicAnimation(),
        ...rest.map((a) => (a === 'out.png' ? join(dir, a) : a)),
      );
      expect(failed.code).toBe(1);
      const { error } = JSON.parse(failed.err.trim());
      expect(error.code).toBe('E_UNSUPPORTED');
      expect(error.message).toContain(`The gemini preset takes HEIC as it is, within its limits ${flag}.`);
      expect(error.message).not.toContain("preset: 'gemini'");
    });
  }
});

describe('cliErrorMessage', () => {
  const usage = 'Usage: glimpse tiles FILE -o DIR [--max-tokens N] [--max-input-pixels N] [--max-file-bytes N]';
  it('says an option the command has no flag for is a library option', () => {
    expect(cliErrorMessage('It took 9 ms; raise timeoutMs if it is trusted.', { name: 'tiles', usage })).toBe(
      'It took 9 ms; raise timeoutMs (a library option: glimpse tiles has no flag for it) if it is trusted.',
    );
    expect(cliErrorMessage('Ask for fewer pages, or raise maxPages.', { name: 'tiles', usage })).toBe(
      'Ask for fewer pages, or raise maxPages (a library option: glimpse tiles has no flag for it).',
    );
    expect(
      cliErrorMessage('Choose a smaller maxEdge or another output format.', { name: 'process', usage: '--max-edge N' }),
    ).toBe('Choose a smaller --max-edge or another output format.');
  });
  it('leaves words that only contain an option name alone', () => {
    const text = 'the limit is maxPdfBytes; --max-bytes-ish stays';
    expect(cliErrorMessage(text, { name: 'process', usage: '--max-bytes N' })).toBe(
      'the limit is maxPdfBytes (a library option: glimpse process has no flag for it); --max-bytes-ish stays',
    );
  });
});
