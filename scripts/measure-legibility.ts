// What a model can read of a full-page capture and a 5K screen, before (the whole image fitted) and after
// (tiles at the working size), per preset, with the token cost of each answer: tesseract on exactly what is
// sent. Slow (tesseract on every tile): run by hand, `node scripts/run-ts.mjs scripts/measure-legibility.ts`.
// The test (test/legibility.test.ts) checks a few tiles of the same images.
import { mkdir, writeFile } from 'node:fs/promises';
import sharp from 'sharp';
import { process as fit, tiles, type PresetName, type WorkingSize } from '@glimpse/media';
import { GEMINI_3_HIGH_SIZE } from '../packages/agent/src/route/working-sizes.js';
import { estimateImageTokens } from '../packages/agent/src/compaction/estimate-tokens.js';
import type { ProviderName } from '../packages/agent/src/route/capabilities.js';
import { wordGrid, wordRecall, wordsInside } from '../test/fixtures/word-grid.js';
import { cut, drawGrid, readWords } from '../test/support/read-words.js';

const IMAGES = [
  { name: 'page 1440×9000, 16 px', grid: wordGrid(1440, 9000, 16) },
  { name: '5K 5120×2880, 15 px', grid: wordGrid(5120, 2880, 15) },
  { name: 'Retina 3456×2234, 26 px', grid: wordGrid(3456, 2234, 26) },
];
/** Each preset at its default model's working size, and Gemini 3 (the gemini preset fitted to media_resolution high). */
const PRESETS: {
  label: string;
  preset: PresetName;
  provider: ProviderName;
  model?: string;
  workingSize?: WorkingSize;
}[] = [
  { label: 'anthropic', preset: 'anthropic', provider: 'anthropic' },
  { label: 'openai', preset: 'openai', provider: 'openai-responses' },
  { label: 'gemini', preset: 'gemini', provider: 'gemini' },
  {
    label: 'gemini 3',
    preset: 'gemini',
    provider: 'gemini',
    model: 'gemini-3.1-pro-preview',
    workingSize: GEMINI_3_HIGH_SIZE,
  },
];
const fitFor = ({ preset, workingSize }: (typeof PRESETS)[number]) => ({ preset, ...(workingSize && { workingSize }) });
const tokensFor = (size: { width: number; height: number }, { provider, model }: (typeof PRESETS)[number]) =>
  estimateImageTokens(size, { provider, ...(model && { model }) });
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
  for (const { preset } of PRESETS.slice(0, 3)) {
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
  const full = wordRecall(expected, await readWords(await cut(image, region)));
  console.log(
    `region ${region.width}×${region.height} of the 5K screen at full resolution: ${(full * 100).toFixed(1)} %`,
  );
  for (const entry of PRESETS) {
    const sent = await fit(image, { ...fitFor(entry), region });
    const asSent = wordRecall(expected, await readWords(sent.data));
    console.log(
      `| ${entry.label} | ${sent.width}×${sent.height} | ${(asSent * 100).toFixed(1)} % (${((asSent / full) * 100).toFixed(1)} % of full) | ${tokensFor(sent, entry)} tokens |`,
    );
  }
  process.exit(0);
}

const percent = (share: number) => `${(share * 100).toFixed(1)} %`;
for (const { name, grid } of IMAGES) {
  const image = await drawGrid(grid);
  const all = grid.words.map((word) => word.text);
  for (const entry of PRESETS) {
    if (only !== undefined && only !== entry.label) continue;
    const whole = await fit(image, fitFor(entry));
    const before = wordRecall(all, await readWords(whole.data));
    const beforeTokens = tokensFor(whole, entry);
    const cut = await tiles(image, fitFor(entry));
    const read: string[] = [];
    let tokens = 0;
    for (const tile of cut.tiles) {
      read.push(...(await readWords(tile.data)));
      tokens += tokensFor(tile, entry);
    }
    const inTiles = wordRecall(all, read);
    console.log(
      `| ${name} | ${entry.label} | ${whole.width}×${whole.height}: ${percent(before)}, ${beforeTokens.toLocaleString('en')} tokens | ` +
        `${cut.tiles.length} tiles (${cut.columns}×${cut.rows}) of ${cut.tiles[0]!.width}×${cut.tiles[0]!.height}: ${percent(inTiles)}, ${tokens.toLocaleString('en')} tokens |`,
    );
  }
}
