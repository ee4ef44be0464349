// The `glimpse` CLI built as scripts/build.mjs builds it (split chunks, the MCP worker beside them), but
// with the workspace packages bundled from source, so a test never runs a stale dist/. Files are .mjs
// because the output folder has no package.json.
import { join } from 'node:path';
import { buildAgent } from '../../scripts/build-agent.mjs';

/** Builds into node_modules/.cache/<name>/ and returns the path of its cli.mjs. */
export async function buildCliForTests(name: string): Promise<string> {
  const outdir = join(process.cwd(), 'node_modules/.cache', name);
  await buildAgent({
    outdir,
    outExtension: { '.js': '.mjs' },
    logLevel: 'silent',
    plugins: [
      {
        name: 'external-npm-dependencies',
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith('@glimpse/') ? undefined : { path: args.path, external: true },
          );
        },
      },
    ],
  });
  return join(outdir, 'cli.mjs');
}
