// Builds the Node bundles that `npm install` needs (run by the root `prepare` script): the media core's
// Node entry, the agent (library, `glimpse` CLI, MCP worker: scripts/build-agent.mjs) and the media
// core's browser, Deno and Workers bundles (scripts/build-runtimes.mjs).
import { build } from 'esbuild';
import { buildAgent, externalDependencies } from './build-agent.mjs';
import { buildRuntimeBundles } from './build-runtimes.mjs';

await Promise.all([
  build({
    entryPoints: ['packages/media/src/entries/node.ts'],
    outfile: 'packages/media/dist/node.js',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['source'],
    plugins: [externalDependencies],
    logLevel: 'warning',
    sourcemap: true,
  }),
  buildAgent(),
  buildRuntimeBundles(),
]);
