// Builds the browser playground (packages/playground) into packages/playground/dist: a static site.
// @glimpse/media is bundled from its browser entry (the codecs' .wasm copied into wasm/, as for
// dist/browser.js); @glimpse/agent from its sources, through its runtime-neutral entry (no node: imports).
import { build } from 'esbuild';
import { copyFile, mkdir, rm } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundledWasm, copyWasmAssets, loadWasmFiles, wasmAssets } from './build-runtimes.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const playground = resolve(root, 'packages/playground');

export async function buildPlayground() {
  const outdir = resolve(playground, 'dist');
  await rm(outdir, { recursive: true, force: true });
  await mkdir(outdir, { recursive: true });
  const assets = await wasmAssets(await loadWasmFiles());
  await copyWasmAssets(assets, outdir);
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
    conditions: ['@glimpse/source'],
    alias: { '@glimpse/media': resolve(root, 'packages/media/src/entries/browser.ts') },
    chunkNames: 'chunks/[name]-[hash]',
    plugins: [bundledWasm(assets)],
    logLevel: 'warning',
  });
  await copyFile(resolve(playground, 'index.html'), resolve(outdir, 'index.html'));
  await copyFile(resolve(playground, 'playground.css'), resolve(outdir, 'playground.css'));
  return outdir;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) console.log(`built ${await buildPlayground()}`);
