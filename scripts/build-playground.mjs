// Builds the browser playground (packages/playground) into packages/playground/dist: a static site.
// @glimpse/media is bundled from its browser entry (WASM via esbuild's file loader, as in
// dist/browser.js); @glimpse/agent from its sources. The agent's Node-only modules (session files)
// import node: builtins the page never calls, so those resolve to an empty module.
import { build } from 'esbuild';
import { copyFile, mkdir, rm } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundledWasm, loadWasmFiles } from './build-runtimes.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const playground = resolve(root, 'packages/playground');

const nodeBuiltinsUnused = {
  name: 'node-builtins-unused-in-page',
  setup(b) {
    b.onResolve({ filter: /^node:/ }, (args) => ({ path: args.path, namespace: 'node-builtin-stub' }));
    b.onLoad({ filter: /.*/, namespace: 'node-builtin-stub' }, () => ({ contents: 'module.exports = {};', loader: 'js' }));
  },
};

export async function buildPlayground() {
  const outdir = resolve(playground, 'dist');
  await rm(outdir, { recursive: true, force: true });
  await mkdir(outdir, { recursive: true });
  await build({
    entryPoints: { playground: resolve(playground, 'src/playground.ts') },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    sourcemap: true,
    conditions: ['source'],
    alias: { '@glimpse/media': resolve(root, 'packages/media/src/entries/browser.ts') },
    loader: { '.wasm': 'file' },
    assetNames: 'wasm/[name]-[hash]',
    chunkNames: 'chunks/[name]-[hash]',
    plugins: [bundledWasm(await loadWasmFiles()), nodeBuiltinsUnused],
    logLevel: 'warning',
  });
  await copyFile(resolve(playground, 'index.html'), resolve(outdir, 'index.html'));
  await copyFile(resolve(playground, 'playground.css'), resolve(outdir, 'playground.css'));
  return outdir;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) console.log(`built ${await buildPlayground()}`);
