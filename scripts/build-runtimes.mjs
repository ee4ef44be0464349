// Builds the media core's browser, Deno and Workers bundles into packages/media/dist/, each with its
// codecs' .wasm files in dist/wasm/. Dependencies are bundled in (a browser or Worker has no
// node_modules). Each entry reads its codec table from a virtual module generated here from WASM_FILES
// (packages/media/src/wasm-files.ts), so adding a codec there is enough.
import { build } from 'esbuild';
import { readdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const media = resolve(root, 'packages/media');
const requireFromMedia = createRequire(resolve(media, 'package.json'));

/** WASM_FILES, read from the TypeScript source by bundling it in memory. */
export async function loadWasmFiles() {
  const result = await build({
    entryPoints: [resolve(media, 'src/wasm-files.ts')],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    write: false,
    logLevel: 'warning',
  });
  const module = await import(`data:text/javascript,${encodeURIComponent(result.outputFiles[0].text)}`);
  return module.WASM_FILES;
}

/** Serves `glimpse:wasm-urls` / `glimpse:wasm-modules`: one static .wasm import per codec. */
export function bundledWasm(wasmFiles) {
  return {
    name: 'bundled-wasm',
    setup(b) {
      b.onResolve({ filter: /^glimpse:wasm-(urls|modules)$/ }, (args) => ({ path: args.path, namespace: 'bundled-wasm' }));
      b.onLoad({ filter: /.*/, namespace: 'bundled-wasm' }, (args) => {
        const names = Object.keys(wasmFiles);
        const imports = names.map((name, i) => `import wasm${i} from ${JSON.stringify(requireFromMedia.resolve(wasmFiles[name]))};`);
        const table = names.map((name, i) => `${JSON.stringify(name)}: wasm${i}`).join(', ');
        const exported = args.path === 'glimpse:wasm-urls' ? 'WASM_URLS' : 'WASM_MODULES';
        return { contents: `${imports.join('\n')}\nexport const ${exported} = { ${table} };\n`, loader: 'js', resolveDir: media };
      });
    },
  };
}

/**
 * The runtime bundles: entry name → esbuild options that differ. Browser and Deno split lazy imports
 * (pdf-lib) into chunks loaded on first use; a Worker's script is parsed whole at upload, so one file.
 */
export const RUNTIMES = {
  browser: { platform: 'browser', loader: { '.wasm': 'file' }, splitting: true },
  deno: { platform: 'neutral', mainFields: ['module', 'main'], conditions: ['deno', 'import'], loader: { '.wasm': 'file' }, splitting: true },
  workerd: { platform: 'browser', conditions: ['workerd', 'worker', 'browser'], loader: { '.wasm': 'copy' }, splitting: false },
};

/** Builds every runtime bundle; each build's esbuild metafile goes to dist/<runtime>.meta.json (for `npm run size`). */
export async function buildRuntimeBundles() {
  const wasmFiles = await loadWasmFiles();
  const outputs = new Set();
  await Promise.all(
    Object.entries(RUNTIMES).map(async ([name, options]) => {
      const result = await build({
        entryPoints: { [name]: resolve(media, `src/entries/${name}.ts`) },
        outdir: resolve(media, 'dist'),
        chunkNames: `chunks/${name}-[name]-[hash]`,
        metafile: true,
        bundle: true,
        format: 'esm',
        target: 'es2022',
        minify: true,
        sourcemap: true,
        assetNames: 'wasm/[name]-[hash]',
        plugins: [bundledWasm(wasmFiles)],
        logLevel: 'warning',
        ...options,
      });
      await writeFile(resolve(media, `dist/${name}.meta.json`), JSON.stringify(result.metafile));
      for (const output of Object.keys(result.metafile.outputs)) outputs.add(resolve(root, output));
    }),
  );
  await removeStale([resolve(media, 'dist/wasm'), resolve(media, 'dist/chunks')], outputs);
}

/**
 * Deletes files in `folders` that the build did not write (`outputs`: absolute paths; source maps of
 * outputs count as outputs), only those whose name `isOurs` (default: every file). Called after the new
 * files exist, so a suite running meanwhile never finds one missing.
 */
export async function removeStale(folders, outputs, isOurs = () => true) {
  for (const directory of folders) {
    const files = (await readdir(directory).catch(() => [])).filter(isOurs);
    const stale = files.map((file) => resolve(directory, file)).filter((path) => !outputs.has(path) && !outputs.has(path.replace(/\.map$/, '')));
    await Promise.all(stale.map((path) => rm(path, { force: true })));
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await buildRuntimeBundles();
