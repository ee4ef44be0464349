// The agent's bundles: the library entries, the `glimpse` CLI and the MCP view worker, in one split
// build. Each CLI command is a chunk loaded when it runs, so `glimpse inspect` never parses the MCP server.
// Chunks sit beside the entries (not in a subfolder): the view-worker pool loads mcp-worker.js from beside
// whichever file it was bundled into. npm dependencies and @glimpse/media stay external.
import { build } from 'esbuild';
import { resolve } from 'node:path';
import { removeStale } from './build-runtimes.mjs';

/** dist file → source. One line per entry in package.json's `exports` (plus the CLI and its worker). */
export const AGENT_ENTRY_POINTS = {
  index: 'packages/agent/src/index.ts', // `.`: the runtime-neutral core
  'index.node': 'packages/agent/src/entries/index.node.ts', // `.` under the `node` condition
  node: 'packages/agent/src/entries/node.ts', // `./node`
  mcp: 'packages/agent/src/entries/mcp.ts', // `./mcp`
  cli: 'packages/agent/src/entries/cli.ts',
  'mcp-worker': 'packages/agent/src/entries/mcp-worker.ts',
  // Adapters, each its own subpath so an app loads only what it uses (package.json "exports").
  'ai-sdk': 'packages/agent/src/entries/ai-sdk.ts',
  pi: 'packages/agent/src/entries/pi.ts',
  clients: 'packages/agent/src/entries/clients.ts',
};

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
    entryPoints: AGENT_ENTRY_POINTS,
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
