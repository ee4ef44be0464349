import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { captureOutput } from '../../../../test/support/capture-output.js';
import { denseScreenshot } from '../../../../test/support/dense-screenshot.js';
import { assertStrictlyValid } from '../../../../test/support/strict-oracle.js';
import { findWireMedia } from '../../../../test/support/wire-media.js';
import { main } from './main.js';

// The issue's case: a tool hands back dense 1500×1000 screenshots, each within its preset, too many for one request.
let dir = '';
const anthropicFiles: string[] = [];
const geminiFiles: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'glimpse-prepare-budget-'));
  for (let i = 0; i < 30; i++) {
    const path = join(dir, `screen-${i + 1}.png`);
    await writeFile(path, await denseScreenshot({ seed: i + 1 }));
    anthropicFiles.push(path);
  }
  // The whole frame noisy: ~4.5 MB each, under the gemini preset's 7 MB, so each passes its own fit untouched.
  for (let i = 0; i < 16; i++) {
    const path = join(dir, `video-${i + 1}.png`);
    await writeFile(path, await denseScreenshot({ seed: 100 + i, noise: 1 }));
    geminiFiles.push(path);
  }
}, 60_000);

afterAll(() => rm(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

async function prepare(files: readonly string[], ...args: string[]) {
  const output = captureOutput();
  const code = await main(['prepare', ...files, ...args]);
  vi.restoreAllMocks();
  const stdout = output.stdout.join('');
  return { code, stdout, stderr: output.stderr.join(''), body: JSON.parse(stdout) as unknown };
}

describe('glimpse prepare: the whole request fits', () => {
  it('30 dense screenshots to anthropic: under 32 MB with 30 images, each strictly valid, each re-fit said', async () => {
    const { code, stdout, stderr, body } = await prepare(anthropicFiles, '--provider', 'anthropic');
    expect(code, stderr).toBe(0);
    // The printed line is the request (plus "provider" and a newline), as a client would send it.
    expect(Buffer.byteLength(stdout)).toBeLessThan(32_000_000);
    const media = findWireMedia(body);
    expect(media).toHaveLength(30);
    for (const medium of media) assertStrictlyValid(medium.bytes, medium.mediaType, medium.path);
    // The first files are re-fitted (oldest first), the rest go as they are; each re-fit is said on stderr.
    const warnings = stderr.trim().split('\n');
    const refitted = media.filter((medium) => medium.mediaType === 'image/jpeg');
    expect(refitted.length).toBeGreaterThan(0);
    expect(warnings).toHaveLength(refitted.length);
    for (const warning of warnings)
      expect(warning).toMatch(
        // view_file sent each 1500×1000 capture at Claude's working size (1,568 patches of 28 px) first.
        /^glimpse prepare: warning: an image \(image\/png, 1344x896 px\) was fitted again to keep the request under 32\.0 MB \(anthropic's bytes per request\) as image\/jpeg, \d+x\d+ px, .* instead of /,
      );
  }, 180_000);

  it.each([
    ['gemini-2.5-flash', 'parts after the function responses'],
    ['gemini-3-pro-preview', 'inside functionResponse.parts'],
  ])(
    '16 noisy screenshots to %s (%s): under 20 MB with 16 images',
    async (model) => {
      const { code, stdout, stderr, body } = await prepare(geminiFiles, '--provider', 'gemini', '--model', model);
      expect(code, stderr).toBe(0);
      expect(Buffer.byteLength(stdout)).toBeLessThan(20_000_000);
      const media = findWireMedia(body);
      expect(media).toHaveLength(16);
      const nested = media.filter((medium) => medium.path.includes('functionResponse.parts'));
      expect(nested).toHaveLength(model.startsWith('gemini-3') ? 16 : 0);
      for (const medium of media) assertStrictlyValid(medium.bytes, medium.mediaType, medium.path);
      const refitted = media.filter((medium) => medium.mediaType === 'image/jpeg').length;
      expect(refitted).toBeGreaterThan(0);
      expect(stderr.match(/was fitted again to keep the request under 20\.0 MB/g)).toHaveLength(refitted);
    },
    180_000,
  );
});
