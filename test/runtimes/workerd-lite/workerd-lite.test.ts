// `@glimpse/media/workerd-lite` (issue 29 item 11): the Workers entry without PDFium, for the free plan's
// 3 MB compressed upload. A Worker importing it is bundled as wrangler bundles one (esbuild, no minifying
// of our own, each .wasm an upload module of its own), and what it uploads is measured gzip'd; then it runs
// in workerd (miniflare) and must fit a JPEG and a PNG, send a PDF to a PDF route, and refuse pdfText with a
// typed error naming the full entry. Needs the built bundles (`npm run build`, which `npm install` runs).
import { build } from 'esbuild';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { Miniflare } from 'miniflare';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as make from '../../fixtures/make.js';
import { assertStrictlyValid } from '../../support/strict-oracle.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const dist = resolve(root, 'packages/media/dist');
const cache = resolve(root, 'node_modules/.cache/glimpse/workerd-lite');
/** Cloudflare's limit for a Worker on the free plan: 3 MB after compression. */
const FREE_PLAN_BYTES = 3_000_000;

/** The Worker bundled against `entry` (a dist bundle); returns its script and the .wasm modules it uploads. */
async function bundleWorker(entry: string, name: string): Promise<{ script: string; wasm: string[] }> {
  const script = resolve(cache, `${name}.js`);
  const result = await build({
    entryPoints: [resolve(root, 'test/runtimes/workerd-lite/lite-worker.ts')],
    outfile: script,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    metafile: true,
    plugins: [
      {
        name: 'the-entry-as-published',
        setup: (b) => {
          b.onResolve({ filter: /^@glimpse\/media\/workerd-lite$/ }, () => ({ path: resolve(dist, entry) }));
          b.onResolve({ filter: /\.wasm$/ }, (args) => ({
            path: relative(cache, resolve(args.resolveDir, args.path)),
            external: true,
          }));
        },
      },
    ],
    logLevel: 'warning',
  });
  const wasm = Object.values(result.metafile.outputs)
    .flatMap((output) => output.imports)
    .filter((imported) => imported.external && imported.path.endsWith('.wasm'))
    .map((imported) => resolve(cache, imported.path));
  return { script, wasm };
}

/** The upload's gzip'd size: the script and each module, compressed one by one. */
function uploadBytes({ script, wasm }: { script: string; wasm: string[] }): number {
  return [script, ...wasm].reduce((sum, path) => sum + gzipSync(readFileSync(path)).byteLength, 0);
}

async function post(url: URL, body: Uint8Array, headers: Record<string, string>) {
  const response = await fetch(url, { method: 'POST', body: new Uint8Array(body), headers });
  const bytes = new Uint8Array(await response.arrayBuffer());
  return { status: response.status, bytes, facts: JSON.parse(response.headers.get('x-result') ?? 'null') };
}

describe('@glimpse/media/workerd-lite', () => {
  let lite: { script: string; wasm: string[] };
  let miniflare: Miniflare;
  let url: URL;

  beforeAll(async () => {
    if (!existsSync(resolve(dist, 'workerd-lite.js')))
      throw new Error('packages/media/dist/workerd-lite.js is missing: run npm run build');
    lite = await bundleWorker('workerd-lite.js', 'lite-worker');
    miniflare = new Miniflare({
      modules: true,
      scriptPath: lite.script,
      modulesRoot: root,
      modulesRules: [
        { type: 'ESModule', include: ['**/*.js'] },
        { type: 'CompiledWasm', include: ['**/*.wasm'] },
      ],
      compatibilityDate: '2025-09-01',
      host: '127.0.0.1',
      port: 0,
    });
    url = await miniflare.ready;
  }, 120_000);

  afterAll(async () => {
    await miniflare?.dispose();
  });

  it("uploads under the free plan's 3 MB compressed, where the full Workers entry does not fit", async () => {
    const liteBytes = uploadBytes(lite);
    const full = uploadBytes(await bundleWorker('workerd.js', 'full-worker'));
    console.log(
      `Worker upload, gzip: workerd-lite ${(liteBytes / 1e6).toFixed(2)} MB, workerd ${(full / 1e6).toFixed(2)} MB`,
    );
    expect(lite.wasm.some((path) => /pdfium/.test(path))).toBe(false);
    expect(lite.wasm.some((path) => /jpeg\.wasm$/.test(path))).toBe(true);
    expect(liteBytes).toBeLessThan(FREE_PLAN_BYTES);
    expect(full).toBeGreaterThan(FREE_PLAN_BYTES);
  }, 60_000);

  it('fits a JPEG and a PNG in workerd', async () => {
    const jpeg = await make.photoJpeg({ width: 1600, height: 1200 });
    const png = await make.screenshotPng({ width: 1400, height: 900 });
    for (const [input, mediaType] of [
      [jpeg, 'image/jpeg'],
      [png, 'image/png'],
    ] as const) {
      const answer = await post(url, input, { 'x-options': JSON.stringify({ preset: 'anthropic', maxEdge: 800 }) });
      expect(answer.status).toBe(200);
      expect(answer.facts).toMatchObject({ mediaType, resized: true });
      expect(Math.max(answer.facts.width, answer.facts.height)).toBe(800);
      assertStrictlyValid(answer.bytes, mediaType);
      const meta = await sharp(answer.bytes).metadata();
      expect([meta.width, meta.height]).toEqual([answer.facts.width, answer.facts.height]);
    }
  }, 60_000);

  it('sends a PDF to a PDF route, and refuses pdfText with E_UNSUPPORTED naming the full entry', async () => {
    const pdf = await make.pdf({ pages: 2 });
    const sent = await post(url, pdf, { 'x-options': JSON.stringify({ preset: 'anthropic' }) });
    expect(sent.status).toBe(200);
    expect(sent.facts).toMatchObject({ mediaType: 'application/pdf', pages: 2 });
    const text = await post(url, pdf, { 'x-call': 'pdfText' });
    expect(text.status).toBe(422);
    const refusal = JSON.parse(new TextDecoder().decode(text.bytes));
    expect(refusal.code).toBe('E_UNSUPPORTED');
    expect(refusal.message).toMatch(/needs PDFium.*Import @glimpse\/media/);
  }, 60_000);
});
