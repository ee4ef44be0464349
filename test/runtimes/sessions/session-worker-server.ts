// session-worker.ts bundled and served by miniflare on 127.0.0.1 with a D1 database (DB) and an R2 bucket
// (MEDIA), for the Workers session-store suite and scripts/bench-session-stores.ts.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const workerFile = resolve(root, 'node_modules/.cache/glimpse/workers/session-worker.js');

export async function startSessionWorker(): Promise<{ miniflare: Miniflare; url: URL }> {
  await build({
    entryPoints: [resolve(root, 'test/runtimes/sessions/session-worker.ts')],
    outfile: workerFile,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'warning',
  });
  const miniflare = new Miniflare({
    modules: true,
    scriptPath: workerFile,
    compatibilityDate: '2025-09-01',
    d1Databases: ['DB'],
    r2Buckets: ['MEDIA'],
    host: '127.0.0.1',
    port: 0,
  });
  return { miniflare, url: await miniflare.ready };
}
