// The HEIC/HEIF structure check that guards Gemini's passthrough, on files heif-enc made and damaged
// copies of them, each also read by Debian's heif-convert (libheif), the strict oracle: what the check
// calls fatal, libheif must refuse too.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { gridHeif, heifEnc } from '../../../../../test/fixtures/heif-writer.js';
import { boxOf, withBoxSize } from '../../../../../test/fixtures/isobmff-surgery.js';
import { concatBytes, naturalPixels } from '../../../../../test/fixtures/pixels.js';
import { checkHeifIntegrity } from './integrity.js';

/** Whether libheif decodes the file's primary image. */
function libheifDecodes(file: Uint8Array): boolean {
  const folder = mkdtempSync(join(tmpdir(), 'glimpse-heif-check-'));
  try {
    writeFileSync(join(folder, 'in.heic'), file);
    execFileSync('heif-convert', [join(folder, 'in.heic'), join(folder, 'out.png')], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

let single: Uint8Array;
let grid: Uint8Array;

beforeAll(async () => {
  single = await heifEnc(naturalPixels(64, 48), { quality: 60 });
  grid = await gridHeif(naturalPixels(130, 70), 64, { quality: 60 });
}, 120_000);

describe('checkHeifIntegrity', () => {
  it('passes what heif-enc writes, single images and grids', () => {
    for (const file of [single, grid]) {
      expect(checkHeifIntegrity(file, 'HEIC')).toBeUndefined();
      expect(libheifDecodes(file)).toBe(true);
    }
  });

  it('refuses a file whose mdat runs past its end (cut short in transfer)', () => {
    const cut = single.subarray(0, single.length - 100);
    expect(checkHeifIntegrity(cut, 'HEIC')).toMatchObject({
      fatal: true,
      problem: expect.stringMatching(/"mdat" box runs past the end/),
    });
    expect(libheifDecodes(cut)).toBe(false);
  });

  it('refuses image data outside the file when the box sizes say nothing (mdat sized "to the end")', () => {
    for (const file of [single, grid]) {
      const cut = withBoxSize(file, 'mdat', 0).subarray(0, file.length - 100);
      expect(checkHeifIntegrity(cut, 'HEIC')).toMatchObject({
        fatal: true,
        problem: expect.stringMatching(/data of item \d+ lies outside the file|item \d+ data needs/),
      });
      expect(libheifDecodes(cut)).toBe(false);
    }
  });

  it('refuses boxes with impossible sizes; repairs a second meta box', () => {
    const tiny = withBoxSize(single, 'mdat', 4);
    expect(checkHeifIntegrity(tiny, 'HEIC')).toMatchObject({
      fatal: true,
      problem: expect.stringMatching(/declares 4 bytes/),
    });
    const meta = boxOf(single, 'meta');
    const twoMetas = concatBytes([single, single.subarray(meta.start, meta.end)]);
    // libheif reads the first meta box and decodes the file: repairable (converted), as heif-convert shows.
    expect(checkHeifIntegrity(twoMetas, 'HEIC')).toEqual({ fatal: false, problem: 'it has 2 meta boxes' });
    expect(libheifDecodes(twoMetas)).toBe(true);
  });

  it('calls stray bytes after the last box repairable, as libheif reads the image anyway', () => {
    const padded = concatBytes([single, new Uint8Array([1, 2, 3])]);
    expect(checkHeifIntegrity(padded, 'HEIC')).toEqual({ fatal: false, problem: '3 stray bytes follow the last box' });
    expect(libheifDecodes(padded)).toBe(true);
    // Eight bytes or more read as a box header, of a size past the end or a type that is not text.
    for (const tail of ['garbage trailing text here\n', '\0'.repeat(1000)]) {
      const trailed = concatBytes([single, new TextEncoder().encode(tail)]);
      expect(checkHeifIntegrity(trailed, 'HEIC')).toEqual({
        fatal: false,
        problem: `${tail.length} stray bytes follow the last box`,
      });
      expect(libheifDecodes(trailed)).toBe(true);
    }
  });
});

describe('what libheif refuses beyond the structure (found by the fuzzer): repairable, so a converted copy is sent', () => {
  /** A copy with `replacement` written over the first occurrence of `pattern`. */
  function patched(file: Uint8Array, pattern: number[], replacement: number[], at = 0): Uint8Array {
    const offset = Buffer.from(file).indexOf(Buffer.from(pattern));
    expect(offset).toBeGreaterThan(0);
    const copy = file.slice();
    copy.set(replacement, offset + at);
    return copy;
  }

  it('a major brand heif-convert does not take as a still image', () => {
    const hevc = single.slice();
    hevc.set([...Buffer.from('hevc')], 8);
    expect(checkHeifIntegrity(hevc, 'HEIC')).toEqual({
      fatal: false,
      problem: expect.stringContaining('major brand "hevc"'),
    });
    expect(libheifDecodes(hevc)).toBe(false);
  });

  it("a grid's pixi property with no channels", () => {
    const pixi = [...Buffer.from('pixi'), 0, 0, 0, 0, 3];
    const empty = patched(grid, pixi, [0], 8);
    expect(checkHeifIntegrity(empty, 'HEIC')).toEqual({
      fatal: false,
      problem: expect.stringContaining('pixi property with no channels'),
    });
    expect(libheifDecodes(empty)).toBe(false);
  });

  it('an iref reference whose box size disagrees with what it holds (libheif reads the references one after another)', () => {
    const dimg = Buffer.from(grid).indexOf(Buffer.from('dimg')) - 4;
    expect(dimg).toBeGreaterThan(0);
    const view = new DataView(grid.buffer, grid.byteOffset);
    for (const change of [4, -4]) {
      const resized = grid.slice();
      new DataView(resized.buffer).setUint32(dimg, view.getUint32(dimg) + change);
      expect(checkHeifIntegrity(resized, 'HEIC'), `size ${change}`).toEqual({
        fatal: false,
        problem: expect.stringContaining('"dimg" reference from item'),
      });
      expect(libheifDecodes(resized)).toBe(true);
    }
  });

  it('a grid whose last column of tiles starts outside its output', () => {
    // The 130×70 grid of 64×64 tiles is 3×2; an output 128 wide leaves the third column nowhere to go.
    const descriptor = [0, 0, 1, 2, 0, 130, 0, 70];
    const narrow = patched(grid, descriptor, [0, 128], 4);
    expect(checkHeifIntegrity(narrow, 'HEIC')).toEqual({
      fatal: false,
      problem: expect.stringContaining('places tile 3 at (128, 0), outside its 128×70 output'),
    });
    expect(libheifDecodes(narrow)).toBe(false);
  });
});
