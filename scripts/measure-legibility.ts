// What a model can read of a full-page capture and a 5K screen, before (the whole image fitted) and after
// (tiles at the working size), per preset, with the token cost of each answer: tesseract on exactly what is
// sent. Slow (tesseract on every tile): run by hand, `node scripts/run-ts.mjs scripts/measure-legibility.ts`.
// The test (test/legibility.test.ts) checks a few tiles of the same images.
import { mkdir, writeFile } from 'node:fs/promises';
import sharp from 'sharp';
import { process as fit, tiles, type PresetName } from '@glimpse/media';
import { estimateImageTokens } from '../packages/agent/src/compaction/estimate-tokens.js';
import type { ProviderName } from '../packages/agent/src/route/capabilities.js';
import { wordGrid, wordRecall, wordsInside } from '../test/fixtures/word-grid.js';
import { cut, drawGrid, readWords } from '../test/support/read-words.js';

const IMAGES = [
  { name: 'page 1440×9000, 16 px', grid: wordGrid(1440, 9000, 16) },
  { name: '5K 5120×2880, 15 px', grid: wordGrid(5120, 2880, 15) },
];
const PRESETS: [PresetName, ProviderName][] = [
  ['anthropic', 'anthropic'],
  ['openai', 'openai-responses'],
  ['gemini', 'gemini'],
];
const only = process.argv[2];

if (only === 'pictures') {
  // The same 480×240 px of the page as each preset's whole-image fit shows it (blown up, nearest neighbour, to
  // the page's scale) and as a tile shows it (full resolution): docs/images/what-the-model-sees/.
  const { grid } = IMAGES[0]!;
  const image = await drawGrid(grid);
  const area = { x: 0, y: 0, width: 480, height: 240 };
  const folder = new URL('../docs/images/what-the-model-sees/', import.meta.url);
  await mkdir(folder, { recursive: true });
  await writeFile(new URL('tile.png', folder), await cut(image, area));
  for (const [preset] of PRESETS) {
    const whole = await fit(image, { preset });
    const scale = whole.width / grid.width;
    const shown = await cut(whole.data, {
      x: 0,
      y: 0,
      width: Math.round(area.width * scale),
      height: Math.round(area.height * scale),
    });
    const blown = await sharp(shown).resize(area.width, area.height, { kernel: 'nearest' }).png().toBuffer();
    await writeFile(new URL(`whole-${preset}.png`, folder), blown);
    console.log(
      `whole-${preset}.png: ${whole.width}×${whole.height} sent, this area ${Math.round(area.width * scale)}×${Math.round(area.height * scale)} px of it`,
    );
  }
  process.exit(0);
}

if (only === 'region') {
  // A part of the 5K screen larger than Claude's working size: sent shrunk to it, against the part at full resolution.
  const grid = IMAGES[1]!.grid;
  const image = await drawGrid(grid);
  const region = { x: 2000, y: 1000, width: 1600, height: 1000 };
  const expected = wordsInside(grid.words, region);
  const sent = await fit(image, { preset: 'anthropic', region });
  const full = wordRecall(expected, await readWords(await cut(image, region)));
  const asSent = wordRecall(expected, await readWords(sent.data));
  const tokens = estimateImageTokens(sent, { provider: 'anthropic' });
  console.log(
    `region ${region.width}×${region.height} of the 5K screen: full resolution ${(full * 100).toFixed(1)} %; sent at ${sent.width}×${sent.height} (${tokens} tokens) ${(asSent * 100).toFixed(1)} % (${((asSent / full) * 100).toFixed(1)} % of full)`,
  );
  process.exit(0);
}

const percent = (share: number) => `${(share * 100).toFixed(1)} %`;
for (const { name, grid } of IMAGES) {
  const image = await drawGrid(grid);
  const all = grid.words.map((word) => word.text);
  for (const [preset, provider] of PRESETS) {
    if (only !== undefined && only !== preset) continue;
    const whole = await fit(image, { preset });
    const before = wordRecall(all, await readWords(whole.data));
    const beforeTokens = estimateImageTokens(whole, { provider });
    const cut = await tiles(image, { preset });
    const read: string[] = [];
    let tokens = 0;
    for (const tile of cut.tiles) {
      read.push(...(await readWords(tile.data)));
      tokens += estimateImageTokens(tile, { provider });
    }
    const inTiles = wordRecall(all, read);
    console.log(
      `| ${name} | ${preset} | ${whole.width}×${whole.height}: ${percent(before)}, ${beforeTokens} tokens | ` +
        `${cut.tiles.length} tiles (${cut.columns}×${cut.rows}) of ${cut.tiles[0]!.width}×${cut.tiles[0]!.height}: ${percent(inTiles)}, ${tokens} tokens |`,
    );
  }
}
