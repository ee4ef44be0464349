// Node side of `npm run test:workers`: bundles vector-worker.ts against the published Workers bundle
// (packages/media/dist/workerd.js, whose .wasm imports workerd compiles), serves it with miniflare on
// 127.0.0.1, POSTs every vector and checks the response bytes. Also records the WASM memory held after
// each vector in test/artifacts/workers-memory.json.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Miniflare } from 'miniflare';
import { describe, differences, report, type VectorOutcome } from '../run-vectors.js';
import type { VectorManifest, VectorObservation } from '../vector-manifest.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const workerFile = resolve(root, 'node_modules/.cache/glimpse/workers/vector-worker.js');
const workerdBundle = resolve(root, 'packages/media/dist/workerd.js');

await build({
  entryPoints: [resolve(root, 'test/runtimes/workers/vector-worker.ts')],
  outfile: workerFile,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  plugins: [
    {
      name: 'media-as-published',
      setup: (b) => b.onResolve({ filter: /^@glimpse\/media$/ }, () => ({ path: relative(dirname(workerFile), workerdBundle), external: true })),
    },
  ],
  logLevel: 'warning',
});

const miniflare = new Miniflare({
  modules: true,
  scriptPath: workerFile,
  modulesRoot: root,
  modulesRules: [
    { type: 'ESModule', include: ['**/*.js'] },
    { type: 'CompiledWasm', include: ['**/*.wasm'] },
  ],
  compatibilityDate: '2025-09-01',
  host: '127.0.0.1',
  port: 0,
});

async function observeInWorker(url: URL, input: Uint8Array, options: object): Promise<{ observed: VectorObservation; wasmBytes: number }> {
  const response = await fetch(url, { method: 'POST', body: new Uint8Array(input), headers: { 'x-options': JSON.stringify(options) } });
  const wasmBytes = Number(response.headers.get('x-wasm-bytes') ?? Number.NaN);
  if (response.status === 422) {
    const { error } = await response.json();
    return { observed: { error: String(error) }, wasmBytes };
  }
  if (!response.ok) throw new Error(`the worker answered ${response.status}: ${await response.text()}`);
  const body = new Uint8Array(await response.arrayBuffer());
  const facts = JSON.parse(response.headers.get('x-result') ?? '{}');
  return { observed: { sha256: createHash('sha256').update(body).digest('hex'), ...facts }, wasmBytes };
}

const megabytes = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
let failed = 1;
try {
  const url = await miniflare.ready;
  const manifest: VectorManifest = JSON.parse(await readFile(resolve(root, 'test/vectors/manifest.json'), 'utf8'));
  const outcomes: VectorOutcome[] = [];
  const memory: { name: string; wasmBytesHeld: number; grewBy: number }[] = [];
  let held = 0;
  for (const vector of manifest.vectors) {
    const input = await readFile(resolve(root, 'test/vectors/inputs', vector.input));
    const started = Date.now();
    try {
      const { observed, wasmBytes } = await observeInWorker(url, input, vector.options);
      const found = differences(vector.expect, observed);
      memory.push({ name: vector.name, wasmBytesHeld: wasmBytes, grewBy: wasmBytes - held });
      const note = `WASM held ${megabytes(wasmBytes)} (+${megabytes(wasmBytes - held)})`;
      held = wasmBytes;
      outcomes.push({ name: vector.name, passed: found.length === 0, detail: `${found.length === 0 ? describe(observed) : found.join('; ')}; ${note}`, milliseconds: Date.now() - started });
    } catch (error) {
      outcomes.push({ name: vector.name, passed: false, detail: `threw ${String(error)}`, milliseconds: Date.now() - started });
    }
  }
  await mkdir(resolve(root, 'test/artifacts'), { recursive: true });
  await writeFile(resolve(root, 'test/artifacts/workers-memory.json'), `${JSON.stringify(memory, null, 2)}\n`);
  const result = report('workers', outcomes);
  console.log(result.text);
  failed = outcomes.length > 0 ? result.failed : 1;
} finally {
  await miniflare.dispose();
}
globalThis.process.exit(failed === 0 ? 0 : 1);
