// Builds the Node bundles that `npm install` needs (run by the root `prepare` script):
// the media core's Node entry, the agent library and the `glimpse` CLI (with its MCP worker).
// npm dependencies stay external; the workspace packages are bundled from their TypeScript sources.
import { build } from 'esbuild';
import { buildRuntimeBundles } from './build-runtimes.mjs';

/** Keeps every bare import external except our own workspace packages. */
const externalDependencies = {
  name: 'external-dependencies',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@glimpse/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

/** Keeps every bare import external, the media core included: @glimpse/heif registers with the user's copy. */
const externalAll = {
  name: 'external-all',
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
  build({ ...common, plugins: [externalAll], entryPoints: ['packages/heif/src/entries/node.ts'], outfile: 'packages/heif/dist/node.js' }),
  build({ ...common, entryPoints: ['packages/agent/src/index.ts'], outfile: 'packages/agent/dist/index.js' }),
  build({ ...common, entryPoints: ['packages/agent/src/cli.ts'], outfile: 'packages/agent/dist/cli.js' }),
  // `glimpse mcp` runs view_file on worker threads; the pool loads this file from beside cli.js.
  build({ ...common, entryPoints: ['packages/agent/src/mcp/view-file-worker.ts'], outfile: 'packages/agent/dist/mcp-worker.js' }),
  buildRuntimeBundles(), // browser, Deno and Workers bundles of the media core (scripts/build-runtimes.mjs)
]);
