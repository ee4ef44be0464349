// `npm run docs`: rewrites every generated block in docs/ from its source (scripts/docs/generated.ts).
// `npm run docs -- --check` changes nothing and exits 1 naming each block that drifted.
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GENERATED_BLOCKS, sameFigures } from './docs/generated.js';
import { readRegion, replaceRegion } from './docs/regions.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');
const drifted: string[] = [];
for (const block of GENERATED_BLOCKS) {
  const path = resolve(root, block.page);
  const page = await readFile(path, 'utf8');
  const generated = await block.generate();
  const current = readRegion(page, block.name);
  const same =
    current !== undefined && (current === generated || (block.match === 'figures' && sameFigures(current, generated)));
  if (same) continue;
  drifted.push(`${block.page} ${block.name}`);
  if (!check) await writeFile(path, replaceRegion(page, block.name, generated));
}
if (check && drifted.length > 0) {
  console.error(`generated blocks out of date (run npm run docs):\n  ${drifted.join('\n  ')}`);
  process.exit(1);
}
console.log(drifted.length === 0 ? 'docs: every generated block is up to date' : `docs: rewrote ${drifted.join(', ')}`);
