import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { fitsWorkingSize, MediaError, PRESETS, tiles, type Region } from '@glimpse/media';
import * as make from '../../../test/fixtures/make.js';
import { decodeIndependently, meanAbsDiff } from '../../../test/support/pixels.js';
import { failsWith } from '../../../test/support/typed-errors.js';
import { planTiles } from './pipeline/tile-plan.js';

/** Every pixel of a `width`×`height` image lies in some region. */
function covers(regions: readonly Region[], width: number, height: number): boolean {
  const xs = [...new Set(regions.flatMap((r) => [r.x, r.x + r.width]))].sort((a, b) => a - b);
  const ys = [...new Set(regions.flatMap((r) => [r.y, r.y + r.height]))].sort((a, b) => a - b);
  if (xs[0] !== 0 || ys[0] !== 0 || xs.at(-1) !== width || ys.at(-1) !== height) return false;
  // Each cell of the grid the edges make is inside one region.
  for (let i = 0; i + 1 < xs.length; i++)
    for (let j = 0; j + 1 < ys.length; j++) {
      const [cx, cy] = [(xs[i]! + xs[i + 1]!) / 2, (ys[j]! + ys[j + 1]!) / 2];
      if (!regions.some((r) => cx > r.x && cx < r.x + r.width && cy > r.y && cy < r.y + r.height)) return false;
    }
  return true;
}

const ANTHROPIC = PRESETS.anthropic;
const OPENAI = PRESETS.openai;

describe('planTiles', () => {
  it.each([
    ['a tall page on anthropic', 1440, 9000, ANTHROPIC],
    ['a tall page on openai', 1440, 9000, OPENAI],
    ['a 5K capture on anthropic', 5120, 2880, ANTHROPIC],
    ['a 5K capture on openai', 5120, 2880, OPENAI],
    ['a Claude high-resolution model', 5120, 2880, { maxEdge: 2576, patches: { size: 28, max: 4784 } }],
    ['an OpenAI patch model', 1440, 9000, { maxEdge: 2048, patches: { size: 32, max: 2500 } }],
  ] as const)('%s: tiles within the working size, covering the image, overlapping', (_, width, height, working) => {
    const plan = planTiles({ width, height }, working, 64);
    expect(plan.regions).toHaveLength(plan.columns * plan.rows);
    for (const region of plan.regions) expect(fitsWorkingSize(region, working)).toBe(true);
    expect(covers(plan.regions, width, height)).toBe(true);
    // Neighbours share pixels: a line cut at one edge is whole in the next tile.
    if (plan.rows > 1)
      expect(plan.regions[0]!.y + plan.regions[0]!.height).toBeGreaterThan(plan.regions[plan.columns]!.y);
    // Reading order: left to right, then top to bottom.
    const order = plan.regions.map((r) => [r.y, r.x]);
    expect(order).toEqual([...order].sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!));
  });

  it('uses as few tiles as the working size allows: a 1440-wide page on Claude is one column of 1440×840', () => {
    const plan = planTiles({ width: 1440, height: 9000 }, ANTHROPIC, 64);
    expect(plan.columns).toBe(1);
    // 52 patches across leave 30 patch rows (840 px) for 1,560 of 1,568; 9000 px at 776 px a step: 12 rows.
    expect(plan.rows).toBe(12);
    expect(plan.regions[0]).toMatchObject({ width: 1440 });
    expect(plan.regions[0]!.height).toBeLessThanOrEqual(840);
    expect(planTiles({ width: 1000, height: 700 }, ANTHROPIC, 64).regions).toEqual([
      { x: 0, y: 0, width: 1000, height: 700 },
    ]);
  });
});

describe('tiles', () => {
  let page: Uint8Array;
  beforeAll(async () => {
    page = await make.screenshotPng({ width: 1440, height: 9000 });
  });

  it('cuts a tall page into full-resolution tiles: the same pixels as the page there', async () => {
    const result = await tiles(page, { preset: 'anthropic', maxTiles: 3, overview: true });
    expect(result).toMatchObject({ columns: 1, rows: 12, original: { width: 1440, height: 9000 } });
    expect(result.tiles).toHaveLength(3);
    expect(result.omitted).toHaveLength(9);
    expect(
      covers(
        [...result.tiles, ...result.omitted].map((t) => ('region' in t ? t.region : t)),
        1440,
        9000,
      ),
    ).toBe(true);
    for (const tile of result.tiles) {
      expect(tile.resized).toBe(false);
      expect([tile.width, tile.height]).toEqual([tile.region.width, tile.region.height]);
    }
    const second = result.tiles[1]!;
    const { data } = await sharp(page)
      .extract({ left: second.region.x, top: second.region.y, width: second.width, height: second.height })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(meanAbsDiff((await decodeIndependently(second.data)).data, new Uint8Array(data))).toBe(0);
    expect(result.overview).toMatchObject({ height: 512 });
  });

  it('refuses PDFs and SVGs, and bad counts, with E_INVALID_OPTIONS', async () => {
    await failsWith(tiles(await make.pdf()), MediaError, 'E_INVALID_OPTIONS');
    await failsWith(tiles(make.svg()), MediaError, 'E_INVALID_OPTIONS');
    await failsWith(tiles(page, { maxTiles: 0 }), MediaError, 'E_INVALID_OPTIONS');
    await failsWith(tiles(page, { overlap: -1 }), MediaError, 'E_INVALID_OPTIONS');
  });
});
