// Builds the Node bundles that `npm install` needs (run by the root `prepare` script):
// the media core's Node entry, the agent library and the `glimpse` CLI (with its MCP worker).
// npm dependencies and @glimpse/media stay external (the agent imports the media core's published entry);
// each package's own TypeScript sources are bundled.
import { build } from 'esbuild';
import { resolve } from 'node:path';
import { buildRuntimeBundles, removeStale } from './build-runtimes.mjs';

/** Keeps every bare import external: npm dependencies and the other workspace packages alike. */
const externalDependencies = {
  name: 'external-dependencies',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => ({ path: args.path, external: true }));
  },
};

const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  conditions: ['source'],
  plugins: [externalDependencies],
  logLevel: 'warning',
  sourcemap: true,
};

await Promise.all([
  build({ ...common, entryPoints: ['packages/media/src/entries/node.ts'], outfile: 'packages/media/dist/node.js' }),
  // One split build: each CLI command is a chunk loaded when it runs, so `glimpse inspect` never parses
  // the MCP server. `glimpse mcp` runs view_file on worker threads; the pool loads mcp-worker.js from beside cli.js.
  build({
    ...common,
    metafile: true,
    entryPoints: {
      index: 'packages/agent/src/index.ts',
      cli: 'packages/agent/src/cli.ts',
      'mcp-worker': 'packages/agent/src/mcp/view-file-worker.ts',
    },
    outdir: 'packages/agent/dist',
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
  }).then(({ metafile }) => removeStale([resolve('packages/agent/dist/chunks')], new Set(Object.keys(metafile.outputs).map((path) => resolve(path))))),
  buildRuntimeBundles(), // browser, Deno and Workers bundles of the media core (scripts/build-runtimes.mjs)
]);
