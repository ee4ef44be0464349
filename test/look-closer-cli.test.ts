// `glimpse process --region` and `glimpse tiles`: a closer look from the command line (issue 26's contracts).
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../packages/agent/src/cli/main.js';
import * as make from './fixtures/make.js';
import { captureOutput } from './support/capture-output.js';
import { decodeIndependently } from './support/pixels.js';

let dir: string;
let capture: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'glimpse-look-closer-'));
  capture = join(dir, 'capture.png');
  await writeFile(capture, await make.screenshotPng({ width: 3000, height: 2000 }));
});

afterEach(() => vi.restoreAllMocks());

async function run(...argv: string[]) {
  const { stdout, stderr } = captureOutput();
  const code = await main(argv);
  vi.restoreAllMocks();
  return { code, out: stdout.join(''), err: stderr.join('') };
}

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
