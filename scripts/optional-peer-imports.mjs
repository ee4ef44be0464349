// Marks each import of an optional peer dependency in a package's generated .d.ts files with `// @ts-ignore`, so
// a consumer that typechecks libraries (`skipLibCheck: false`) needs only the peers it uses: an Anthropic-only
// app does not install the Bedrock, Gemini and Ollama SDKs to compile. Where the peer is installed its types are
// used as they are; where it is not, the names it would give are `any` and nothing else fails. (tsc keeps no
// comments on import lines, so scripts/build-package.mjs runs this after it.)
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The package a module specifier names: `@scope/name` or `name`, without a subpath. */
const packageOf = (specifier) =>
  specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0];

const IMPORT_LINE = /^(?:import|export)\b.*\bfrom\s+'([^'.][^']*)';$/;

/** The text of one .d.ts with every import (or re-export) line from an `optional` package marked. */
export function markOptionalPeerImports(text, optional) {
  const lines = text.split('\n');
  const out = [];
  for (const [index, line] of lines.entries()) {
    const specifier = IMPORT_LINE.exec(line)?.[1];
    const name = specifier === undefined ? undefined : packageOf(specifier);
    if (name !== undefined && optional.has(name) && !lines[index - 1]?.startsWith('// @ts-ignore'))
      out.push(`// @ts-ignore -- ${name} is an optional peer dependency: without it, these types are \`any\``);
    out.push(line);
  }
  return out.join('\n');
}

/** Marks every .d.ts under `typesDir` for the optional peers of the package at `packageDir`; returns how many lines. */
export function markOptionalPeerImportsIn(packageDir, typesDir) {
  const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  const optional = new Set(
    Object.entries(manifest.peerDependenciesMeta ?? {})
      .filter(([, meta]) => meta.optional === true)
      .map(([name]) => name),
  );
  let marked = 0;
  for (const entry of readdirSync(typesDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.d.ts')) continue;
    const path = join(entry.parentPath, entry.name);
    const before = readFileSync(path, 'utf8');
    const after = markOptionalPeerImports(before, optional);
    if (after === before) continue;
    marked += after.split('\n').length - before.split('\n').length;
    writeFileSync(path, after);
  }
  return marked;
}
