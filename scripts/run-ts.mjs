// Runs a TypeScript script on any supported Node (type stripping is not relied on): bundles it with esbuild (npm packages
// stay external, workspace sources are bundled) into node_modules/.cache/glimpse/, then imports it.
// `import.meta.url` keeps meaning the TypeScript file's own location, so scripts find files beside them.
// Usage: node scripts/run-ts.mjs path/to/script.ts [args...]
import { build } from 'esbuild';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const [entry, ...args] = process.argv.slice(2);
if (!entry) {
  console.error('usage: node scripts/run-ts.mjs <script.ts> [args...]');
  process.exit(2);
}

const outfile = resolve(root, 'node_modules/.cache/glimpse/scripts', `${basename(entry, '.ts')}.mjs`);
const { outputFiles } = await build({
  entryPoints: [resolve(entry)],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  conditions: ['@glimpse/source'],
  plugins: [
    {
      name: 'source-import-meta-url',
      setup(b) {
        b.onLoad({ filter: /\.(ts|mjs)$/ }, async (loaded) => {
          if (loaded.path.includes('/node_modules/')) return undefined;
          const source = await readFile(loaded.path, 'utf8');
          const contents = source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(loaded.path).href));
          return { contents, loader: loaded.path.endsWith('.ts') ? 'ts' : 'js' };
        });
      },
    },
    {
      name: 'external-npm-packages',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (resolved) =>
          resolved.path.startsWith('@glimpse/') ? undefined : { path: resolved.path, external: true },
        );
      },
    },
  ],
  sourcemap: 'inline',
  logLevel: 'warning',
  write: false,
});
// Written aside and renamed into place: another run bundling the same script at the same time (the fuzzer
// starts a child per job) must never import a half-written file ("fuzz child did not start (exit 0)").
const temporary = `${outfile}.${process.pid}.tmp`;
await mkdir(dirname(outfile), { recursive: true });
await writeFile(temporary, outputFiles[0].contents);
await rename(temporary, outfile);
process.argv = [process.argv[0], outfile, ...args];
await import(pathToFileURL(outfile).href);
