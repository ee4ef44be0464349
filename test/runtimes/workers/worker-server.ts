// The Worker that the Workers suite and the memory measurement talk to: vector-worker.ts bundled against
// the published Workers bundles (packages/media/dist/workerd.js and packages/heif/dist/workerd.js, whose
// .wasm imports workerd compiles), served by miniflare on 127.0.0.1.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MiniflareOptions } from 'miniflare';
import type { VectorObservation, VectorOperation } from '../vector-manifest.js';
import type { WasmMemoryUse } from './wasm-memory.js';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const workerDir = resolve(root, 'node_modules/.cache/glimpse/workers');
const workerdBundle = resolve(root, 'packages/media/dist/workerd.js');
const heifWorkerdBundle = resolve(root, 'packages/heif/dist/workerd.js');

/**
 * Bundles the Worker `entry` (a file beside this one; run `node scripts/build-runtimes.mjs` first) and
 * returns miniflare's options for it.
 */
export async function buildWorker(entry = 'vector-worker.ts'): Promise<MiniflareOptions> {
  const workerFile = resolve(workerDir, entry.replace(/\.ts$/, '.js'));
  await build({
    entryPoints: [resolve(root, 'test/runtimes/workers', entry)],
    outfile: workerFile,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    plugins: [
      {
        name: 'packages-as-published',
        setup: (b) => {
          b.onResolve({ filter: /^@glimpse\/media$/ }, () => ({
            path: relative(dirname(workerFile), workerdBundle),
            external: true,
          }));
          // The heif bundle is bundled in, as wrangler does with a package; its .wasm stays an import (and
          // its @glimpse/media import becomes the one above, so it registers with the Worker's core).
          b.onResolve({ filter: /^@glimpse\/heif$/ }, () => ({ path: heifWorkerdBundle }));
          b.onResolve({ filter: /\.wasm$/ }, (args) => ({
            path: relative(dirname(workerFile), resolve(args.resolveDir, args.path)),
            external: true,
          }));
        },
      },
    ],
    logLevel: 'warning',
  });
  return {
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
  };
}

export interface WorkerAnswer {
  observed: VectorObservation;
  memory: WasmMemoryUse;
  message?: string;
}

/** POSTs `input` with `options` (and the operation, when not `process`); a MediaError comes back as its code (and message), anything else throws. */
export async function postToWorker(
  url: URL,
  input: Uint8Array,
  options: object,
  operation?: VectorOperation,
): Promise<WorkerAnswer> {
  const headers = {
    'x-options': JSON.stringify(options),
    ...(operation ? { 'x-operation': JSON.stringify(operation) } : {}),
  };
  const response = await fetch(url, { method: 'POST', body: new Uint8Array(input), headers });
  const memory: WasmMemoryUse = JSON.parse(
    response.headers.get('x-wasm-memory') ?? '{"held":0,"created":0,"largest":0,"byModule":{}}',
  );
  if (response.status === 422) {
    const { error, message } = await response.json();
    return { observed: { error: String(error) }, memory, message: String(message) };
  }
  if (!response.ok) throw new Error(`the worker answered ${response.status}: ${await response.text()}`);
  const body = new Uint8Array(await response.arrayBuffer());
  const facts = JSON.parse(response.headers.get('x-result') ?? '{}');
  return { observed: { sha256: createHash('sha256').update(body).digest('hex'), ...facts }, memory };
}
