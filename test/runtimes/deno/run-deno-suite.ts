// Node side of `npm run test:deno`: builds the runtime bundles, then runs deno-vectors.ts with the Deno
// binary from the npm package `deno`. Deno may only read the repository (for node_modules and vectors).
// `--unstable-sloppy-imports` lets Deno follow our `./x.js` specifiers to the `./x.ts` sources of the
// shared runner; the media package itself is the built dist/deno.js.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const denoBinary = createRequire(import.meta.url).resolve('deno/bin.cjs');

const run = spawnSync(
  globalThis.process.execPath,
  [
    denoBinary,
    'run',
    `--allow-read=${root}`,
    '--unstable-sloppy-imports',
    '--no-prompt',
    'test/runtimes/deno/deno-vectors.ts',
  ],
  { cwd: root, stdio: 'inherit' },
);
globalThis.process.exit(run.status ?? 1);
