import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { MediaError, process, renderPdfPage, type WorkingSize } from '@glimpse/media';
import * as make from '../../../../test/fixtures/make.js';
import { failsWith } from '../../../../test/support/typed-errors.js';
import { fitsWorkingSize, fitWorkingSize, patchCount } from './working-size.js';

const ANTHROPIC_HIGH: WorkingSize = { maxEdge: 2576, patches: { size: 28, max: 4784 } };

describe('fitWorkingSize', () => {
  it("gives Anthropic's documented sizes: 1092×1092 square, 784×1568 at 1:2, 1000×1000 untouched", () => {
    const standard: WorkingSize = { maxEdge: 1568, patches: { size: 28, max: 1568 } };
    expect(fitWorkingSize({ width: 4000, height: 4000 }, standard)).toEqual({ width: 1092, height: 1092 });
    expect(fitWorkingSize({ width: 2000, height: 4000 }, standard)).toEqual({ width: 784, height: 1568 });
    expect(fitWorkingSize({ width: 1000, height: 1000 }, standard)).toEqual({ width: 1000, height: 1000 });
  });

  it('is the largest size of the shape within the budget: one pixel more on the long side is over it', () => {
    for (const [width, height] of [
      [3456, 2234],
      [5120, 2880],
      [1440, 9000],
      [2000, 2001],
      [7999, 13],
    ] as const) {
      for (const working of [
        { maxEdge: 1568, patches: { size: 28, max: 1568 } },
        ANTHROPIC_HIGH,
        { maxEdge: 2048, maxShortSide: 768 },
        { maxEdge: 2048, patches: { size: 32, max: 2500 } },
      ]) {
        const fitted = fitWorkingSize({ width, height }, working);
        expect(fitsWorkingSize(fitted, working), `${width}×${height}`).toBe(true);
        const long = Math.max(fitted.width, fitted.height) + 1;
        const bigger = {
          width: Math.round((width * long) / Math.max(width, height)),
          height: Math.round((height * long) / Math.max(width, height)),
        };
        if (long <= Math.max(width, height)) expect(fitsWorkingSize(bigger, working), `${width}×${height}`).toBe(false);
      }
    }
  });

  it('shrinks the short side to 768 px for tile models (2048 box first)', () => {
    expect(fitWorkingSize({ width: 3456, height: 2234 }, { maxEdge: 2048, maxShortSide: 768 })).toEqual({
      width: 1188,
      height: 768,
    });
    expect(fitWorkingSize({ width: 1440, height: 9000 }, { maxEdge: 2048, maxShortSide: 768 })).toEqual({
      width: 328,
      height: 2048,
    });
  });
});

describe('process fits the model working size', () => {
  it('anthropic: a 3456×2234 screenshot goes out within 1,568 patches of 28 px, not as 1568×1014', async () => {
    const png = await make.screenshotPng({ width: 3456, height: 2234 });
    const result = await process(png, { preset: 'anthropic' });
    expect(patchCount(result, 28)).toBeLessThanOrEqual(1568);
    expect(result).toMatchObject({ width: 1372, height: 887, resized: true });
    // The bytes hold that size (the coordinate note states the size the model sees).
    const meta = await sharp(result.data).metadata();
    expect([meta.width, meta.height]).toEqual([1372, 887]);
    // One patch row more on the long side would be over the budget: nothing is left for the server to shrink.
    expect(patchCount({ width: 1372 + 28, height: 887 + 18 }, 28)).toBeGreaterThan(1568);
  });

  it('a high-resolution model (workingSize) gets up to 4,784 patches and 2576 px', async () => {
    const png = await make.screenshotPng({ width: 3456, height: 2234 });
    const result = await process(png, { preset: 'anthropic', workingSize: ANTHROPIC_HIGH });
    expect(patchCount(result, 28)).toBeLessThanOrEqual(4784);
    expect(Math.max(result.width, result.height)).toBeGreaterThan(2300);
  });

  it('openai (tile models): the short side at 768 px; an image within the working size passes untouched', async () => {
    const png = await make.screenshotPng({ width: 3456, height: 2234 });
    expect(await process(png, { preset: 'openai' })).toMatchObject({ width: 1188, height: 768 });
    const small = await make.screenshotPng({ width: 1000, height: 700 });
    expect(await process(small, { preset: 'anthropic' })).toMatchObject({ reencoded: false, width: 1000 });
  });

  it('turns an image upright before it counts (a rotated JPEG keeps the same budget)', async () => {
    const jpeg = await make.photoJpeg({ width: 2234, height: 3456, orientation: 6 });
    const result = await process(jpeg, { preset: 'anthropic' });
    expect(result).toMatchObject({ width: 1372, height: 887 });
  });

  it('renders SVGs and PDF pages within the patch budget too', async () => {
    const svg = make.svg({ width: '3456', height: '2234' });
    const drawn = await process(svg, { preset: 'anthropic' });
    expect(patchCount(drawn, 28)).toBeLessThanOrEqual(1568);
    expect(drawn.width).toBeGreaterThan(1300);
    // A letter page at 1568 px would be 1212×1568 (2,464 patches).
    const page = await renderPdfPage(await make.pdf(), 1, { preset: 'anthropic' });
    expect(patchCount(page, 28)).toBeLessThanOrEqual(1568);
    expect(page.height).toBeGreaterThan(1200);
  });

  it('refuses a malformed workingSize with E_INVALID_OPTIONS', async () => {
    const png = await make.screenshotPng({ width: 40, height: 30 });
    await failsWith(process(png, { workingSize: { maxEdge: 0 } }), MediaError, 'E_INVALID_OPTIONS');
    await failsWith(
      process(png, { workingSize: { maxEdge: 100, patches: { size: 28, max: -1 } } }),
      MediaError,
      'E_INVALID_OPTIONS',
    );
    // @ts-expect-error JavaScript callers may pass anything
    await failsWith(process(png, { workingSize: 5 }), MediaError, 'E_INVALID_OPTIONS');
  });
});
