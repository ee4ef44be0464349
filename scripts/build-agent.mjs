// The agent's bundles: the library entries, the `glimpse` CLI and the MCP view worker, in one split
// build. Each CLI command is a chunk loaded when it runs, so `glimpse inspect` never parses the MCP server.
// Chunks sit beside the entries (not in a subfolder): the view-worker pool loads mcp-worker.js from beside
// whichever file it was bundled into. npm dependencies and @glimpse/media stay external.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { removeStale } from './build-runtimes.mjs';

const AGENT_PACKAGE = new URL('../packages/agent/package.json', import.meta.url);

/**
 * dist file → source, read from the package's `exports` (each entry's `@glimpse/source` beside its runtime
 * file, the `node` condition of `.` included), plus the CLI and the MCP view worker, which no export names.
 * Adding a subpath is its entries/ file and its `exports` entry; the build, the vitest aliases and the tarball
 * test follow from them.
 */
export function agentEntryPoints(exportsField = JSON.parse(readFileSync(AGENT_PACKAGE, 'utf8')).exports) {
  const entries = {};
  const add = (dist, source) => {
    entries[basename(dist).replace(/\.js$/, '')] = join('packages/agent', source);
  };
  for (const target of Object.values(exportsField)) {
    const source = typeof target === 'object' ? target['@glimpse/source'] : undefined;
    if (typeof source === 'string') add(target.default, source);
    else if (source !== undefined)
      for (const condition of Object.keys(source)) add(target[condition], source[condition]);
  }
  return {
    ...entries,
    cli: 'packages/agent/src/entries/cli.ts',
    'mcp-worker': 'packages/agent/src/entries/mcp-worker.ts', // loaded by the view-worker pool from beside its bundle
  };
}

/** Keeps every bare import external: npm dependencies and the other workspace packages alike. */
export const externalDependencies = {
  name: 'external-dependencies',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => ({ path: args.path, external: true }));
  },
};

/** Builds into `outdir` (default packages/agent/dist) and returns esbuild's metafile; `overrides` are esbuild options (tests bundle the media core in). */
export async function buildAgent({ outdir = resolve('packages/agent/dist'), ...overrides } = {}) {
  const result = await build({
    entryPoints: agentEntryPoints(),
    outdir,
    bundle: true,
    splitting: true,
    chunkNames: '[name]-[hash]',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['@glimpse/source'],
    plugins: [externalDependencies],
    logLevel: 'warning',
    sourcemap: true,
    metafile: true,
    ...overrides,
  });
  const written = new Set(Object.keys(result.metafile.outputs).map((path) => resolve(path)));
  await removeStale([outdir], written, (name) => /-[A-Z0-9]{8}\.js(\.map)?$/.test(name)); // chunks of earlier builds
  return result.metafile;
}
