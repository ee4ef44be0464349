// Builds the Node bundles that `npm install` needs (run by the root `prepare` script): the media core's
// Node entry, the agent (library, `glimpse` CLI, MCP worker: scripts/build-agent.mjs) and the media
// core's browser, Deno and Workers bundles (scripts/build-runtimes.mjs).
import { build } from 'esbuild';
import { buildAgent, externalDependencies } from './build-agent.mjs';
import { buildRuntimeBundles } from './build-runtimes.mjs';

/** Keeps every bare import external, the media core included: @glimpse/heif registers with the user's copy. */
const externalAll = {
  name: 'external-all',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => ({ path: args.path, external: true }));
  },
};

const nodeBundle = { bundle: true, platform: 'node', format: 'esm', target: 'node20', conditions: ['source'], logLevel: 'warning', sourcemap: true };

await Promise.all([
  build({ ...nodeBundle, entryPoints: ['packages/media/src/entries/node.ts'], outfile: 'packages/media/dist/node.js', plugins: [externalDependencies] }),
  build({ ...nodeBundle, entryPoints: ['packages/heif/src/entries/node.ts'], outfile: 'packages/heif/dist/node.js', plugins: [externalAll] }),
  buildAgent(),
  buildRuntimeBundles(),
]);
