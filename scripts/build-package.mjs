// Builds one published package for `npm pack` (its `prepack` script runs this): its JS bundles
// (scripts/build.mjs NAME), its .d.ts files generated from the sources (tsconfig.types.json → dist/types/; imports of
// optional peers marked by scripts/optional-peer-imports.mjs),
// and the repository's LICENSE copied in. Usage: node scripts/build-package.mjs NAME   (see scripts/packages.mjs)
import { spawnSync } from 'node:child_process';
import { copyFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { markOptionalPeerImportsIn } from './optional-peer-imports.mjs';
import { PUBLISHED_PACKAGES } from './packages.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const name = process.argv[2];
if (!PUBLISHED_PACKAGES.some((p) => p.name === name)) {
  console.error(`usage: node scripts/build-package.mjs ${PUBLISHED_PACKAGES.map((p) => p.name).join('|')}`);
  process.exit(2);
}
const packageDir = join(root, 'packages', name);

/** Runs a node script from the repository root, failing loudly. */
function run(script, args = []) {
  const result = spawnSync(process.execPath, [script, ...args], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${script} ${args.join(' ')} exited with ${result.status}`);
}

run(join(root, 'scripts/build.mjs'), [name]);
rmSync(join(packageDir, 'dist/types'), { recursive: true, force: true });
run(createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc'), [
  '-p',
  join(packageDir, 'tsconfig.types.json'),
]);
markOptionalPeerImportsIn(packageDir, join(packageDir, 'dist/types'));
copyFileSync(join(root, 'LICENSE'), join(packageDir, 'LICENSE'));
