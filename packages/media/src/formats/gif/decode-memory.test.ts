import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { buildGif, GREY } from '../../../../../test/fixtures/gif-writer.js';

const WIDTH = 8000;
const HEIGHT = 5000;
/** The index at (x, y): bands and a checker, so the LZW data compresses like a real graphic. The child process gets its source. */
function indexAt(x: number, y: number): number {
  return ((x >> 4) + (y >> 4) * 3 + ((x ^ y) & 7)) & 255;
}

const dir = mkdtempSync(join(tmpdir(), 'glimpse-gif-memory-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('GIF: a 40 MP first frame decodes with bounded memory', () => {
  it('streams its rows: the decode grows the process by a fraction of a byte per pixel, and every sampled pixel is right', async () => {
    const indices = new Uint8Array(WIDTH * HEIGHT);
    for (let y = 0; y < HEIGHT; y++) for (let x = 0; x < WIDTH; x++) indices[y * WIDTH + x] = indexAt(x, y);
    const gifPath = join(dir, '40mp.gif');
    writeFileSync(
      gifPath,
      buildGif({ width: WIDTH, height: HEIGHT }, GREY, [{ width: WIDTH, height: HEIGHT, indices }]),
    );
    // A small GIF of the same kind, decoded first: V8 compiles the decoder's hot loops while it runs, so the
    // compiler's own memory (several MB on Node 24, whatever the image's size) is in the baseline, not the growth.
    const warmPath = join(dir, 'warm.gif');
    const warm = { width: 1000, height: 625 };
    const warmIndices = new Uint8Array(warm.width * warm.height);
    for (let y = 0; y < warm.height; y++)
      for (let x = 0; x < warm.width; x++) warmIndices[y * warm.width + x] = indexAt(x, y);
    writeFileSync(warmPath, buildGif(warm, GREY, [{ ...warm, indices: warmIndices }]));

    // A fresh process, so its peak RSS is this decode's alone.
    const script = join(dir, 'decode.mjs');
    await build({
      stdin: {
        contents: `
          import { readFileSync } from 'node:fs';
          import { decodeGifRows } from './decode.ts';
          const indexAt = ${indexAt.toString()};
          const bytes = new Uint8Array(readFileSync(process.argv[2]));
          for (let round = 0; round < 3; round++)
            decodeGifRows(new Uint8Array(readFileSync(process.argv[3])), { start() {}, write() {} });
          const before = process.resourceUsage().maxRSS * 1024;
          let width = 0, height = 0, y = 0, mismatches = 0;
          const { hasAlpha } = decodeGifRows(bytes, {
            start(layout) { width = layout.width; height = layout.height; },
            write(pixels, rows) {
              for (let r = 0; r < rows; r++, y++) {
                for (let x = (y * 7) % 997; x < width; x += 997) {
                  const at = (r * width + x) * 4, grey = indexAt(x, y);
                  if (pixels[at] !== grey || pixels[at + 1] !== grey || pixels[at + 2] !== grey || pixels[at + 3] !== 255) mismatches++;
                }
              }
            },
          });
          const peak = process.resourceUsage().maxRSS * 1024;
          console.log(JSON.stringify({ growth: peak - before, width, height, rows: y, hasAlpha, mismatches }));`,
        resolveDir: fileURLToPath(new URL('.', import.meta.url)),
        loader: 'ts',
      },
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: script,
      logLevel: 'silent',
    });
    const report: unknown = JSON.parse(
      execFileSync(process.execPath, [script, gifPath, warmPath], { encoding: 'utf8' }),
    );
    expect(report).toMatchObject({ width: WIDTH, height: HEIGHT, rows: HEIGHT, hasAlpha: false, mismatches: 0 });
    // gifuct-js grew the peak by ~17 bytes per pixel here, the whole-frame decoder by 5 (indices + RGBA
    // canvas); rows in bands need a 256 KB band and the LZW dictionary: allow a tenth of a byte per pixel.
    expect(reportNumber(report, 'growth')).toBeLessThan(0.1 * WIDTH * HEIGHT);
  }, 120_000);
});

function reportNumber(report: unknown, key: string): number {
  const field: unknown = typeof report === 'object' && report !== null ? Reflect.get(report, key) : undefined;
  if (typeof field !== 'number') throw new Error(`the decode report has no number ${key}: ${JSON.stringify(report)}`);
  return field;
}
