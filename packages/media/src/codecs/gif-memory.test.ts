import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { buildGif, GREY } from './gif-fixtures.js';

const WIDTH = 8000;
const HEIGHT = 5000;
/** The index at (x, y): bands and a checker, so the LZW data compresses like a real graphic. The child process gets its source. */
function indexAt(x: number, y: number): number {
  return ((x >> 4) + (y >> 4) * 3 + ((x ^ y) & 7)) & 255;
}

const dir = mkdtempSync(join(tmpdir(), 'glimpse-gif-memory-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('GIF: a 40 MP first frame decodes with bounded memory', () => {
  it('peaks near 5 bytes per pixel (index buffer + RGBA canvas) and decodes every sampled pixel', async () => {
    const indices = new Uint8Array(WIDTH * HEIGHT);
    for (let y = 0; y < HEIGHT; y++) for (let x = 0; x < WIDTH; x++) indices[y * WIDTH + x] = indexAt(x, y);
    const gifPath = join(dir, '40mp.gif');
    writeFileSync(gifPath, buildGif({ width: WIDTH, height: HEIGHT }, GREY, [{ width: WIDTH, height: HEIGHT, indices }]));

    // A fresh process, so its peak RSS is this decode's alone.
    const script = join(dir, 'decode.mjs');
    await build({
      stdin: {
        contents: `
          import { readFileSync } from 'node:fs';
          import { decodeGifFirstFrame } from './gif.ts';
          const indexAt = ${indexAt.toString()};
          const bytes = new Uint8Array(readFileSync(process.argv[2]));
          const before = process.resourceUsage().maxRSS * 1024;
          const { raster, hasAlpha } = decodeGifFirstFrame(bytes);
          const peak = process.resourceUsage().maxRSS * 1024;
          let mismatches = 0;
          for (let p = 0; p < raster.width * raster.height; p += 997) {
            const x = p % raster.width, y = Math.floor(p / raster.width), grey = indexAt(x, y);
            const at = p * 4;
            if (raster.data[at] !== grey || raster.data[at + 1] !== grey || raster.data[at + 2] !== grey || raster.data[at + 3] !== 255) mismatches++;
          }
          console.log(JSON.stringify({ growth: peak - before, width: raster.width, height: raster.height, hasAlpha, mismatches }));`,
        resolveDir: fileURLToPath(new URL('.', import.meta.url)),
        loader: 'ts',
      },
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: script,
      logLevel: 'silent',
    });
    const report: unknown = JSON.parse(execFileSync(process.execPath, [script, gifPath], { encoding: 'utf8' }));
    expect(report).toMatchObject({ width: WIDTH, height: HEIGHT, hasAlpha: false, mismatches: 0 });
    // gifuct-js grew the peak by ~17 bytes per pixel here (number arrays); allow 6 for the 5 we need plus allocator slack.
    // Speed is the bench's business (npm run bench), not a test's: a wall-clock bound fails on a loaded machine.
    expect(reportNumber(report, 'growth')).toBeLessThan(6 * WIDTH * HEIGHT);
  }, 120_000);
});

function reportNumber(report: unknown, key: string): number {
  const field: unknown = typeof report === 'object' && report !== null ? Reflect.get(report, key) : undefined;
  if (typeof field !== 'number') throw new Error(`the decode report has no number ${key}: ${JSON.stringify(report)}`);
  return field;
}
