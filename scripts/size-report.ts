// The figures of `npm run size`: JS and WASM bytes, raw and gzip (level 9, each file alone), per media entry.
// Reads the esbuild metafiles that scripts/build-runtimes.mjs writes; JS is split into what loads
// with the entry and what loads on first use (dynamic imports: pdf-lib, the WebP encoder glue).
// Node's bundle keeps npm dependencies external (node_modules), so its JS is our own code only.
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { OMITTED_CODECS, WASM_FILES } from '../packages/media/src/runtime/wasm-files.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = resolve(root, 'packages/media/dist');

interface MetafileOutput {
  bytes: number;
  entryPoint?: string;
  imports: { path: string; kind: string }[];
}

interface Sizes {
  raw: number;
  gzip: number;
}

async function sizeOf(paths: string[]): Promise<Sizes> {
  let raw = 0;
  let gzip = 0;
  for (const path of paths) {
    const bytes = await readFile(resolve(root, path));
    raw += bytes.byteLength;
    gzip += gzipSync(bytes, { level: 9 }).byteLength;
  }
  return { raw, gzip };
}

/** Output files reachable from `start` through imports of the given kinds. */
function reachable(outputs: Record<string, MetafileOutput>, start: string[], kinds: string[]): string[] {
  const found = new Set<string>();
  const queue = [...start];
  while (queue.length > 0) {
    const path = queue.pop();
    if (path === undefined || found.has(path)) continue;
    found.add(path);
    for (const imported of outputs[path]?.imports ?? []) if (kinds.includes(imported.kind)) queue.push(imported.path);
  }
  return [...found];
}

interface EntryReport {
  entry: string;
  initialJs: Sizes;
  lazyJs: Sizes;
  wasm: Sizes;
  wasmFiles: string[];
}

/** The .wasm files in `directory`, as absolute paths. */
async function wasmFilesIn(directory: string): Promise<string[]> {
  return (await readdir(directory)).filter((name) => name.endsWith('.wasm')).map((name) => resolve(directory, name));
}

async function runtimeReport(runtime: string): Promise<EntryReport> {
  const { outputs }: { outputs: Record<string, MetafileOutput> } = JSON.parse(
    await readFile(resolve(dist, `${runtime}.meta.json`), 'utf8'),
  );
  const entry = Object.keys(outputs).find((path) => outputs[path]?.entryPoint?.endsWith(`entries/${runtime}.ts`));
  if (entry === undefined)
    throw new Error(`${runtime}.meta.json names no entry output: run node scripts/build-runtimes.mjs`);
  const isJs = (path: string) => path.endsWith('.js');
  const initial = reachable(outputs, [entry], ['import-statement']).filter(isJs);
  const everything = reachable(outputs, [entry], ['import-statement', 'dynamic-import']).filter(isJs);
  // Every bundle refers to every codec's .wasm: the package's own in wasm/, its dependencies' copied to
  // dist/wasm/ (scripts/build-runtimes.mjs).
  const order = Object.values(WASM_FILES).map((specifier) => basename(specifier, '.wasm'));
  const rank = (path: string) => order.indexOf(basename(path).replace(/(-[0-9a-f]{8})?\.wasm$/, ''));
  // workerd-lite's table leaves PDFium out.
  const omitted = (OMITTED_CODECS[runtime] ?? []).map((codec) => basename(WASM_FILES[codec], '.wasm'));
  const wasmFiles = (await Promise.all([resolve(dist, '../wasm'), resolve(dist, 'wasm')].map(wasmFilesIn)))
    .flat()
    .filter((path) => !omitted.includes(basename(path).replace(/(-[0-9a-f]{8})?\.wasm$/, '')))
    .sort((a, b) => rank(a) - rank(b));
  return {
    entry: runtime,
    initialJs: await sizeOf(initial),
    lazyJs: await sizeOf(everything.filter((path) => !initial.includes(path))),
    wasm: await sizeOf(wasmFiles),
    wasmFiles,
  };
}

async function nodeReport(wasmFiles: string[]): Promise<EntryReport | undefined> {
  const bundle = resolve(dist, 'node.js');
  if (!(await stat(bundle).catch(() => undefined))) return undefined;
  return {
    entry: 'node',
    initialJs: await sizeOf([bundle]),
    lazyJs: { raw: 0, gzip: 0 },
    wasm: await sizeOf(wasmFiles),
    wasmFiles,
  };
}

/** An optional package's JS for one entry (its own code: the core stays an import), raw / gzip. */
const packageEntryJs = (name: string) => async (runtime: string) => {
  const bundle = `packages/${name}/dist/${runtime}.js`;
  if (!(await stat(resolve(root, bundle)).catch(() => undefined))) return `${runtime} (not built)`;
  const { raw, gzip } = await sizeOf([bundle]);
  return `${runtime} ${(raw / 1024).toFixed(1)} / ${(gzip / 1024).toFixed(1)} KB`;
};

const kilobytes = ({ raw, gzip }: Sizes) => `${(raw / 1024).toFixed(1)} / ${(gzip / 1024).toFixed(1)} KB`.padEnd(22);

/** The `npm run size` table (also the generated block in docs/runtimes.md). Needs the bundles built. */
export async function sizeReport(): Promise<string> {
  const lines: string[] = [];
  const reports = await Promise.all(['browser', 'deno', 'workerd', 'workerd-lite'].map(runtimeReport));
  const node = await nodeReport(reports[0]?.wasmFiles ?? []);
  lines.push(
    `${'entry'.padEnd(13)}${'JS at load (raw / gz)'.padEnd(22)}${'JS lazy (raw / gz)'.padEnd(22)}WASM, all codecs (raw / gz)`,
  );
  for (const report of node ? [node, ...reports] : reports) {
    lines.push(
      `${report.entry.padEnd(13)}${kilobytes(report.initialJs)}${kilobytes(report.lazyJs)}${kilobytes(report.wasm)}`.trimEnd(),
    );
  }
  if (!node) lines.push('node         (run `npm run build` first for dist/node.js)');
  lines.push('', 'WASM modules (each loads on first use; raw / gzip):');
  const codecByFile = new Map(
    Object.entries(WASM_FILES).map(([codec, specifier]) => [basename(specifier, '.wasm'), codec]),
  );
  const sizes = new Map<string, Sizes>();
  for (const path of reports[0]?.wasmFiles ?? []) {
    const codec = codecByFile.get(basename(path).replace(/(-[0-9a-f]{8})?\.wasm$/, '')) ?? basename(path);
    sizes.set(codec, await sizeOf([path]));
    lines.push(`  ${codec.padEnd(24)}${kilobytes(sizes.get(codec) ?? { raw: 0, gzip: 0 })}`.trimEnd());
  }
  // resvg is SVG only.
  const withoutResvg = [...sizes.keys()].filter((name) => name !== 'resvg');
  const total = (key: keyof Sizes) => withoutResvg.reduce((sum, name) => sum + (sizes.get(name)?.[key] ?? 0), 0);
  lines.push(`  ${'all but resvg'.padEnd(24)}${kilobytes({ raw: total('raw'), gzip: total('gzip') })}`.trimEnd());
  lines.push('', 'Optional packages (not in the core; loaded on first use once imported):');
  lines.push(
    `  ${'heif (@glimpse/heif)'.padEnd(24)}${kilobytes(await sizeOf(['packages/heif/wasm/heif.wasm']))}LGPL-3.0 (libheif, libde265)`.trimEnd(),
  );
  const heifJs = await Promise.all(['node', 'browser', 'deno', 'workerd'].map(packageEntryJs('heif')));
  lines.push(`  ${'  its JS per entry'.padEnd(24)}${heifJs.join(', ')}`);
  lines.push('', 'node: npm dependencies stay in node_modules (not counted); browser/deno/workerd bundle them.');
  lines.push(
    'workerd-lite (@glimpse/media/workerd-lite): the Workers entry without PDFium (its WASM column has no pdfium).',
  );
  return lines.join('\n');
}
