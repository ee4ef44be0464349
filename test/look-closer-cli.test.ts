// `glimpse process --region` and `glimpse tiles`: a closer look from the command line (issue 26's contracts).
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import * as make from './fixtures/make.js';
import { runCli } from './support/run-cli.js';
import { decodeIndependently } from './support/pixels.js';

let dir: string;
let capture: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'glimpse-look-closer-'));
  capture = join(dir, 'capture.png');
  await writeFile(capture, await make.screenshotPng({ width: 3000, height: 2000 }));
});

afterEach(() => vi.restoreAllMocks());

const run = runCli;

describe('glimpse process --region', () => {
  it('writes the region cut at full resolution and prints it in the summary', async () => {
    const out = join(dir, 'region.png');
    const result = await run('process', capture, '--region', '100,200,800,600', '--preset', 'anthropic', '-o', out);
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.out);
    expect(summary).toMatchObject({
      width: 800,
      height: 600,
      region: { x: 100, y: 200, width: 800, height: 600 },
      steps: expect.arrayContaining(['cropped']),
      output: out,
    });
    expect(await decodeIndependently(new Uint8Array(await readFile(out)))).toMatchObject({ width: 800, height: 600 });
  });

  it('refuses a malformed region as usage (exit 2) and one outside the image with E_INVALID_OPTIONS (exit 1)', async () => {
    for (const bad of ['1,2,3', '0,0,0,10', 'a,b,c,d', '-1,0,5,5']) {
      const result = await run('process', capture, '--region', bad);
      expect(result.code, bad).toBe(2);
      expect(result.err, bad).toContain('--region');
    }
    const outside = await run('process', capture, '--region', '2900,0,200,10');
    expect(outside.code).toBe(1);
    expect(JSON.parse(outside.err.trim()).error).toMatchObject({ code: 'E_INVALID_OPTIONS' });
  });
});

describe('glimpse tiles', () => {
  it('writes the tiles into DIR and prints one JSON object listing each with its region in the original', async () => {
    const page = join(dir, 'page.png');
    await writeFile(page, await make.screenshotPng({ width: 1440, height: 9000 }));
    const out = join(dir, 'tiles');
    const result = await run('tiles', page, '--preset', 'anthropic', '-o', out);
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.out);
    expect(summary).toMatchObject({ columns: 1, rows: 12, omitted: [], original: { width: 1440, height: 9000 } });
    expect(summary.tiles).toHaveLength(12);
    let bottom = 0;
    for (const tile of summary.tiles) {
      expect(Object.keys(tile)).toEqual(['output', 'width', 'height', 'region', 'tokens']);
      expect(tile.output.startsWith(out)).toBe(true);
      const written = await decodeIndependently(new Uint8Array(await readFile(tile.output)));
      expect([written.width, written.height]).toEqual([tile.width, tile.height]);
      expect(tile.region).toMatchObject({ x: 0, width: 1440, height: tile.height });
      // Reading order, overlapping: each starts above where the one before ended.
      expect(tile.region.y).toBeLessThan(Math.max(1, bottom));
      bottom = tile.region.y + tile.region.height;
      expect(tile.tokens).toBeLessThanOrEqual(1568);
    }
    expect(bottom).toBe(9000);
    expect(summary.tokens).toBe(summary.tiles.reduce((sum: number, tile: { tokens: number }) => sum + tile.tokens, 0));
  });

  it('names the files of a JPEG tile-00N.jpg and overview.jpg, as --help says', async () => {
    const photo = join(dir, 'tall.jpg');
    await writeFile(photo, await make.photoJpeg({ width: 1200, height: 5000 }));
    const out = join(dir, 'jpeg-tiles');
    const result = await run('tiles', photo, '--preset', 'anthropic', '--overview', '-o', out);
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.out);
    expect(summary.tiles.length).toBeGreaterThan(1);
    summary.tiles.forEach((tile: { output: string }, index: number) =>
      expect(tile.output).toBe(join(out, `tile-${String(index + 1).padStart(3, '0')}.jpg`)),
    );
    expect(summary.overview.output).toBe(join(out, 'overview.jpg'));
    expect((await decodeIndependently(new Uint8Array(await readFile(summary.overview.output)))).width).toBe(
      summary.overview.width,
    );
    const help = (await run('tiles', '--help')).out;
    expect(help).toContain('tile-001.jpg from a JPEG');
    expect(help).toContain('overview.jpg as the tiles');
  });

  it('sizes tiles for --model and keeps to --max-tokens, listing what it left out', async () => {
    const capture = join(dir, '5k.png');
    await writeFile(capture, await make.screenshotPng({ width: 5120, height: 2880 }));
    const result = await run(
      'tiles',
      capture,
      '--model',
      'claude-opus-4-7',
      '--max-tokens',
      '10000',
      '-o',
      join(dir, '5k'),
    );
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.out);
    expect(summary.model).toBe('claude-opus-4-7');
    // High-resolution tiles: up to 4,784 patches each, so two fit in 10,000 tokens.
    expect(summary.tiles).toHaveLength(2);
    expect(summary.tokens).toBeLessThanOrEqual(10_000);
    expect(summary.omitted.length).toBeGreaterThan(0);
    expect(Math.max(summary.tiles[0].width, summary.tiles[0].height)).toBeGreaterThan(1568);
  });

  it('needs -o DIR, and refuses a PDF with E_INVALID_OPTIONS', async () => {
    expect((await run('tiles', capture)).code).toBe(2);
    const pdf = join(dir, 'doc.pdf');
    await writeFile(pdf, await make.pdf());
    const refused = await run('tiles', pdf, '-o', join(dir, 'pdf-tiles'));
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.err.trim()).error).toMatchObject({ code: 'E_INVALID_OPTIONS' });
  });
});
