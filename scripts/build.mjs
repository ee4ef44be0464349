// Builds every package's bundles (run by the root `prepare` script, so `npm install` leaves them ready):
// `PACKAGE_BUILDS` maps a published package (scripts/packages.mjs) to its build. Paths are relative to the
// repository root, which this script makes the working directory.
// Usage: node scripts/build.mjs [PACKAGE ...]   (default: all)
import { build } from 'esbuild';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildAgent, externalDependencies } from './build-agent.mjs';
import { buildHeifBundles, buildRuntimeBundles } from './build-runtimes.mjs';

process.chdir(resolve(dirname(fileURLToPath(import.meta.url)), '..'));

/** A package's Node entry; npm dependencies (and @glimpse/media, which @glimpse/heif registers with) stay in node_modules. */
function buildNodeEntry(name) {
  return build({
    entryPoints: [`packages/${name}/src/entries/node.ts`],
    outfile: `packages/${name}/dist/node.js`,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['@glimpse/source'],
    plugins: [externalDependencies],
    logLevel: 'warning',
    sourcemap: true,
  });
}

export const PACKAGE_BUILDS = {
  // Node entry, and the browser, Deno and Workers bundles (scripts/build-runtimes.mjs).
  media: () => Promise.all([buildNodeEntry('media'), buildRuntimeBundles()]),
  // The optional HEIC decoder's Node entry, and its browser, Deno and Workers bundles.
  heif: () => Promise.all([buildNodeEntry('heif'), buildHeifBundles()]),
  // Library entries, the `glimpse` CLI and its MCP worker (scripts/build-agent.mjs).
  agent: () => buildAgent(),
};

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const names = process.argv.slice(2);
  await Promise.all((names.length > 0 ? names : Object.keys(PACKAGE_BUILDS)).map((name) => PACKAGE_BUILDS[name]()));
}
