// The docs stay true to the code: every generated block matches its source (scripts/docs/generated.ts;
// `npm run docs` rewrites them), every page is reachable from the README, and every link lands.
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { GENERATED_BLOCKS, sameFigures } from '../scripts/docs/generated.js';
import { readRegion, regionNames } from '../scripts/docs/regions.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
/** Blocks that hold a measurement (written by the bench, not by npm run docs): only their shape is checked. */
const MEASURED_BLOCKS = ['docs/performance.md bench-cli', 'docs/performance.md bench'];
const read = (path: string) => readFile(resolve(root, path), 'utf8');
const docPages = async () =>
  (await readdir(resolve(root, 'docs'))).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`);

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function anchors(page: string): Set<string> {
  const found = new Set<string>();
  let fenced = false;
  for (const line of page.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = !fenced && /^#{1,6} (.+)$/.exec(line);
    if (heading)
      found.add(
        (heading[1] ?? '')
          .toLowerCase()
          .replace(/[^\p{L}\p{N}\s_-]/gu, '')
          .replace(/\s/g, '-'),
      );
  }
  return found;
}

describe('docs', () => {
  it.each(GENERATED_BLOCKS.map((block) => [`${block.page} ${block.name}`, block] as const))(
    '%s matches its source',
    async (_label, block) => {
      const current = readRegion(await read(block.page), block.name);
      expect(current, `${block.page} has no generated:${block.name} block`).toBeDefined();
      const generated = await block.generate();
      if (block.match === 'figures' && current !== undefined && sameFigures(current, generated)) return;
      expect(current, `${block.page} ${block.name} drifted from its source: run npm run docs`).toBe(generated);
    },
  );

  it('has no generated block that nothing generates', async () => {
    const known = new Set(GENERATED_BLOCKS.map((block) => `${block.page} ${block.name}`).concat(MEASURED_BLOCKS));
    for (const page of [...(await docPages()), 'README.md']) {
      for (const name of regionNames(await read(page)))
        expect(known.has(`${page} ${name}`), `${page} ${name}`).toBe(true);
    }
  });

  it('shows the last CLI bench run, with the machine it ran on', async () => {
    const block = readRegion(await read('docs/performance.md'), 'bench-cli') ?? '';
    expect(block).toMatch(/^glimpse bench \(CLI\) — .+ cores/);
    for (const row of [
      'node -e 0',
      'inspect, direct script',
      'glimpse inspect',
      'process, direct script',
      'glimpse process',
    ])
      expect(block).toContain(`| ${row} |`);
  });

  it('shows the last pipeline bench run, with the machine it ran on and every job', async () => {
    const block = readRegion(await read('docs/performance.md'), 'bench') ?? '';
    expect(block).toMatch(/^glimpse bench — .+ cores.+load average/);
    for (const job of [
      '12 MP photo JPEG',
      '3024×1964 screenshot PNG',
      '4000×3000 HEIC',
      '4000×3000 AVIF',
      '4000×3000 TIFF',
    ])
      expect(block).toContain(`### ${job}`);
    for (const column of ['× sharp', 'CPU ms', 'peak RSS MB (Node)', 'peak MB (workerd)'])
      expect(block).toContain(column);
    expect(block).toContain('### Targets');
  });

  it('keeps the README to a few screens, linking every docs page', async () => {
    const readme = await read('README.md');
    expect(readme.split('\n').length).toBeLessThanOrEqual(200);
    for (const page of await docPages()) expect(readme, `README links ${page}`).toContain(`](${page})`);
  });

  it('has no broken relative link or anchor', async () => {
    const broken: string[] = [];
    for (const page of ['README.md', ...(await docPages())]) {
      const text = (await read(page)).replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (target === undefined || /^[a-z]+:/.test(target)) continue;
        const [file, anchor] = target.split('#');
        const linked = file ? join(dirname(page), file) : page;
        const content = await read(linked).catch(() => undefined);
        if (content === undefined) broken.push(`${page}: ${target} (no such file)`);
        else if (anchor && linked.endsWith('.md') && !anchors(content).has(anchor))
          broken.push(`${page}: ${target} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });
});

describe('model ids in the docs', () => {
  it("name each route's current model, the one the demo and the token tables use (DEMO_MODELS)", async () => {
    const { DEMO_MODELS } = await import('../packages/agent/src/cli/estimate-targets.js');
    const pages = ['README.md', 'packages/agent/README.md', 'packages/media/README.md', ...(await docPages())];
    const claudeIds = new Set<string>();
    for (const page of pages)
      for (const [id] of (await read(page)).matchAll(/claude-(sonnet|opus|haiku)-\d+-\d+/g)) claudeIds.add(id);
    // One Claude id across the docs (it was three: claude-sonnet-4-5, 4-6 and 5-5).
    expect([...claudeIds]).toEqual([DEMO_MODELS.anthropic]);
  });
});
