// Builds the browser, Deno and Workers bundles of the media core (packages/media/dist/) and of @glimpse/heif
// (packages/heif/dist/). Dependencies are bundled in (a browser or Worker has no node_modules), except the
// core in @glimpse/heif's. Each entry reads its codec table from a virtual module generated here (the core's
// from WASM_FILES, packages/media/src/runtime/wasm-files.ts, so adding a codec there is enough).
//
// Each .wasm ships once: a package's own codecs (packages/<name>/wasm/, in its tarball as `wasm/*.wasm` and
// exported as `@glimpse/<name>/wasm/*`) are referred to where they are, as `../wasm/<codec>.wasm`; a
// dependency's (resvg, PDFium) is copied to dist/wasm/<name>-<content hash>.wasm.
// The table refers to each file by a literal relative path, the form other bundlers follow when an app
// bundles @glimpse/media again: `new URL("../wasm/x.wasm", import.meta.url)` (Vite and Rollup emit the file
// as an asset) and `import m from "../wasm/x.wasm"` (wrangler compiles it as a module at upload).
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { copyFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const media = resolve(root, 'packages/media');
const requireFromMedia = createRequire(resolve(media, 'package.json'));

/** WASM_FILES, read from the TypeScript source by bundling it in memory. */
export async function loadWasmFiles() {
  return (await loadWasmFilesModule()).WASM_FILES;
}

/** packages/media/src/runtime/wasm-files.ts (WASM_FILES, OMITTED_CODECS), bundled in memory. */
async function loadWasmFilesModule() {
  const result = await build({
    entryPoints: [resolve(media, 'src/runtime/wasm-files.ts')],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    write: false,
    logLevel: 'warning',
  });
  return import(`data:text/javascript,${encodeURIComponent(result.outputFiles[0].text)}`);
}

/**
 * Each codec's .wasm: where it comes from (`source`), the path the bundles refer to it by (`file`, relative to
 * their folder), and whether the build copies it there (`copy`). A file in `packageDirectory`/wasm/ ships in
 * the package's tarball already, so the bundles in its dist/ refer to it in place (`../wasm/<name>.wasm`);
 * any other (a dependency's, or every file when there is no package) is copied as
 * `wasm/<name>-<first 8 hex of its sha256>.wasm`.
 */
export async function wasmAssets(wasmFiles, packageDirectory) {
  const shipped = packageDirectory === undefined ? undefined : resolve(packageDirectory, 'wasm');
  const assets = {};
  for (const [codec, specifier] of Object.entries(wasmFiles)) {
    const source = requireFromMedia.resolve(specifier);
    if (shipped !== undefined && dirname(source) === shipped) {
      const file = relative(resolve(packageDirectory, 'dist'), source).split(sep).join('/');
      assets[codec] = { source, file, copy: false };
      continue;
    }
    const hash = createHash('sha256')
      .update(await readFile(source))
      .digest('hex')
      .slice(0, 8);
    assets[codec] = { source, file: `./wasm/${basename(source, '.wasm')}-${hash}.wasm`, copy: true };
  }
  return assets;
}

/** Copies the assets that need it into `outdir` (beside the bundle that refers to them); returns the paths written. */
export async function copyWasmAssets(assets, outdir) {
  const copied = Object.values(assets).filter(({ copy }) => copy);
  if (copied.length > 0) await mkdir(resolve(outdir, 'wasm'), { recursive: true });
  await Promise.all(copied.map(({ source, file }) => copyFile(source, resolve(outdir, file))));
  return copied.map(({ file }) => resolve(outdir, file));
}

/** `import.meta.url` as text for the generated module, spelled apart: scripts/run-ts.mjs rewrites the literal token in scripts it runs. */
const IMPORT_META_URL = ['import', 'meta', 'url'].join('.');

/** Serves `glimpse:wasm-urls` (browser, Deno: each codec's URL) and `glimpse:wasm-modules` (Workers: one .wasm import per codec). */
export function bundledWasm(assets) {
  return {
    name: 'bundled-wasm',
    setup(b) {
      b.onResolve({ filter: /^glimpse:wasm-(urls|modules)$/ }, (args) => ({
        path: args.path,
        namespace: 'bundled-wasm',
      }));
      // Left as imports for the Worker's own bundler (wrangler's default rule makes each a compiled module).
      b.onResolve({ filter: /\.wasm$/, namespace: 'bundled-wasm' }, (args) => ({ path: args.path, external: true }));
      b.onLoad({ filter: /.*/, namespace: 'bundled-wasm' }, (args) => {
        const entries = Object.entries(assets);
        if (args.path === 'glimpse:wasm-urls') {
          const table = entries
            .map(
              ([codec, { file }]) =>
                `${JSON.stringify(codec)}: new URL(${JSON.stringify(file)}, ${IMPORT_META_URL}).href`,
            )
            .join(',\n  ');
          return { contents: `export const WASM_URLS = {\n  ${table},\n};\n`, loader: 'js' };
        }
        const imports = entries.map(([, { file }], i) => `import wasm${i} from ${JSON.stringify(file)};`);
        const table = entries.map(([codec], i) => `${JSON.stringify(codec)}: wasm${i}`).join(', ');
        return { contents: `${imports.join('\n')}\nexport const WASM_MODULES = { ${table} };\n`, loader: 'js' };
      });
    },
  };
}

/**
 * The runtime bundles: entry name → esbuild options that differ. Browser and Deno split lazy imports
 * (pdf-lib) into chunks loaded on first use; a Worker's script is parsed whole at upload, so one file.
 */
export const RUNTIMES = {
  browser: { platform: 'browser', splitting: true },
  deno: { platform: 'neutral', mainFields: ['module', 'main'], conditions: ['deno', 'import'], splitting: true },
  workerd: { platform: 'browser', conditions: ['workerd', 'worker', 'browser'], splitting: false },
};

/** The media core's bundles: those, and the Workers entry without PDFium, within the free plan's 3 MB (`@glimpse/media/workerd-lite`). */
export const MEDIA_RUNTIMES = { ...RUNTIMES, 'workerd-lite': RUNTIMES.workerd };

/** `assets` without the codecs `runtime` leaves out (OMITTED_CODECS, runtime/wasm-files.ts; the rest refer to every codec). */
function assetsFor(runtime, assets, omittedCodecs) {
  const omitted = omittedCodecs[runtime] ?? [];
  return Object.fromEntries(Object.entries(assets).filter(([codec]) => !omitted.includes(codec)));
}

/**
 * Builds one package's runtime bundles (src/entries/<runtime>.ts) into its dist/, with `assets` (those not
 * shipped in its wasm/) copied to dist/wasm/ and served by the glimpse:wasm-* modules; each build's esbuild metafile goes to
 * dist/<runtime>.meta.json (for `npm run size`). `external` stays an import.
 */
async function buildPackageBundles(packageDirectory, assets, external = [], runtimes = RUNTIMES, omittedCodecs = {}) {
  const dist = resolve(packageDirectory, 'dist');
  const outputs = new Set();
  for (const path of await copyWasmAssets(assets, dist)) outputs.add(path);
  await Promise.all(
    Object.entries(runtimes).map(async ([name, options]) => {
      const result = await build({
        entryPoints: { [name]: resolve(packageDirectory, `src/entries/${name}.ts`) },
        outdir: dist,
        chunkNames: `chunks/${name}-[name]-[hash]`,
        metafile: true,
        bundle: true,
        format: 'esm',
        target: 'es2022',
        minify: true,
        sourcemap: true,
        external,
        plugins: [bundledWasm(assetsFor(name, assets, omittedCodecs))],
        logLevel: 'warning',
        ...options,
      });
      await writeFile(resolve(dist, `${name}.meta.json`), JSON.stringify(result.metafile));
      for (const output of Object.keys(result.metafile.outputs)) outputs.add(resolve(root, output));
    }),
  );
  await removeStale([resolve(dist, 'wasm'), resolve(dist, 'chunks')], outputs);
}

/** Builds the media core's runtime bundles. */
export async function buildRuntimeBundles() {
  const { WASM_FILES, OMITTED_CODECS } = await loadWasmFilesModule();
  await buildPackageBundles(media, await wasmAssets(WASM_FILES, media), [], MEDIA_RUNTIMES, OMITTED_CODECS);
}

/**
 * Builds @glimpse/heif's runtime bundles. @glimpse/media stays an import: the decoder must register with
 * the copy of the core the application uses, which the application's resolver (or bundler) provides.
 */
export async function buildHeifBundles() {
  const heif = resolve(root, 'packages/heif');
  await buildPackageBundles(heif, await wasmAssets({ heif: resolve(heif, 'wasm/heif.wasm') }, heif), [
    '@glimpse/media',
  ]);
}

/**
 * Deletes files in `folders` that the build did not write (`outputs`: absolute paths; source maps of
 * outputs count as outputs), only those whose name `isOurs` (default: every file). Called after the new
 * files exist, so a suite running meanwhile never finds one missing.
 */
export async function removeStale(folders, outputs, isOurs = () => true) {
  for (const directory of folders) {
    const files = (await readdir(directory).catch(() => [])).filter(isOurs);
    const stale = files
      .map((file) => resolve(directory, file))
      .filter((path) => !outputs.has(path) && !outputs.has(path.replace(/\.map$/, '')));
    await Promise.all(stale.map((path) => rm(path, { force: true })));
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href)
  await Promise.all([buildRuntimeBundles(), buildHeifBundles()]);
