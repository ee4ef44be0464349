// Can a model read what it is sent? tesseract reads back the words of a full-page capture (1440×9000, 16 px
// text) and a 5K screen (5120×2880, 15 px text), from exactly what glimpse sends: the whole image fitted to
// each preset (before: unreadable), and tiles at the working size (after). To stay fast, a strip of one tile
// is read per case; scripts/measure-legibility.ts reads every tile for the table in docs/what-the-model-sees.md.
import { beforeAll, describe, expect, it } from 'vitest';
import { process, tiles, type PresetName, type Region, type WorkingSize } from '@glimpse/media';
import { GEMINI_3_HIGH_SIZE } from '../packages/agent/src/route/working-sizes.js';
import { wordGrid, wordRecall, wordsInside, type WordGrid } from './fixtures/word-grid.js';
import { cut, drawGrid, readWords } from './support/read-words.js';

const PAGE = wordGrid(1440, 9000, 16);
const SCREEN = wordGrid(5120, 2880, 15);
const images = new Map<WordGrid, Uint8Array>();
beforeAll(async () => {
  for (const grid of [PAGE, SCREEN]) images.set(grid, await drawGrid(grid));
});

/** Words read in a strip (rows `from`..`to` of `image`, whose top-left is `origin` in the original) over those whole inside it. */
async function stripRecall(grid: WordGrid, image: Uint8Array, strip: Region, origin: { x: number; y: number }) {
  const inOriginal = { ...strip, x: strip.x + origin.x, y: strip.y + origin.y };
  return wordRecall(wordsInside(grid.words, inOriginal), await readWords(await cut(image, strip)));
}

describe.each([
  ['the 1440×9000 page', PAGE],
  ['the 5K screen', SCREEN],
] as const)('%s', (_, grid) => {
  it.each([
    ['anthropic', 'anthropic', {}],
    ['openai', 'openai', {}],
    // A Gemini 3 model: the gemini preset fitted to media_resolution high's working size (route/working-sizes.ts).
    ['gemini 3', 'gemini', { workingSize: GEMINI_3_HIGH_SIZE }],
  ] as [string, PresetName, { workingSize?: WorkingSize }][])(
    '%s: tiles read at ≥ 95 %, where the whole image fitted reads almost nothing',
    async (_label, preset, working) => {
      const image = images.get(grid)!;
      const whole = await process(image, { preset, ...working });
      const before = wordRecall(
        grid.words.map((word) => word.text),
        await readWords(whole.data),
      );
      expect(before).toBeLessThan(0.5);
      // A middle tile; a strip of it 10 lines high, across its whole width.
      const { tiles: made } = await tiles(image, { preset, ...working, maxTiles: 2 });
      const tile = made.at(-1)!;
      expect([tile.width, tile.height]).toEqual([tile.region.width, tile.region.height]); // full resolution
      const lines = Math.round(grid.words[0]!.box.height * 10);
      const strip = { x: 0, y: Math.floor((tile.height - lines) / 2), width: tile.width, height: lines };
      const after = await stripRecall(grid, tile.data, strip, tile.region);
      expect(after).toBeGreaterThanOrEqual(0.95);
    },
    120_000,
  );
});

describe('a region of the 5K screen', () => {
  it('reads ≥ 95 % of what the same region reads at full resolution, fitted to anthropic', async () => {
    const image = images.get(SCREEN)!;
    // 1600×1000 is over Claude's 1,568 patches: it is sent shrunk to its working size (1389×868).
    const region = { x: 2000, y: 1000, width: 1600, height: 1000 };
    const sent = await process(image, { preset: 'anthropic', region });
    expect(sent.width).toBeLessThan(region.width);
    const expected = wordsInside(SCREEN.words, region);
    const atFullResolution = wordRecall(expected, await readWords(await cut(image, region)));
    const asSent = wordRecall(expected, await readWords(sent.data));
    expect(atFullResolution).toBeGreaterThan(0.9);
    expect(asSent).toBeGreaterThanOrEqual(0.95 * atFullResolution);
  }, 120_000);
});
