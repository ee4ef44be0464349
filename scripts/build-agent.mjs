// The agent's bundles: the library entries and the MCP view worker in one split build, and the `glimpse` CLI
// beside them. The CLI's entry (cli.js) is one file, and so is each command that needs nothing but the media
// core (cli-inspect.js, cli-process.js, …: ONE_FILE_COMMANDS), so `glimpse process` loads three files of its
// own rather than twenty chunks shared with the library (each ESM file costs its resolve, read, compile and
// link; docs/performance.md, "The `glimpse` CLI"). The other commands (cli-mcp.js, …) are entries of the split
// build, so `glimpse inspect` never parses the MCP server. Chunks sit beside the entries (not in a subfolder):
// the view-worker pool loads mcp-worker.js from beside whichever file it was bundled into. npm dependencies and
// @glimpse/media stay external.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { removeStale } from './build-runtimes.mjs';

const AGENT_PACKAGE = new URL('../packages/agent/package.json', import.meta.url);
const CLI_ENTRY = 'packages/agent/src/entries/cli.ts';
const AGENT_SOURCE = fileURLToPath(new URL('../packages/agent/src/', import.meta.url));
const COMMANDS_MODULE = join(AGENT_SOURCE, 'cli/commands.ts');

/**
 * The commands built as one file each (their modules may import no local module lazily). The others are entries
 * of the split build. Either way a command shares no module with the entry, so one that uses the file tools'
 * default file system sets it itself (cli/local-disk.ts; the build checks).
 */
export const ONE_FILE_COMMANDS = new Set(['inspect', 'process', 'tiles', 'text']);

/**
 * dist file → source, read from the package's `exports` (each entry's `@glimpse/source` beside its runtime
 * file, the `node` condition of `.` included), plus the MCP view worker, which no export names.
 * Adding a subpath is its entries/ file and its `exports` entry; the build, the vitest aliases and the tarball
 * test follow from them.
 */
export function agentEntryPoints(exportsField = JSON.parse(readFileSync(AGENT_PACKAGE, 'utf8')).exports) {
  const entries = {};
  const add = (dist, source) => {
    entries[basename(dist).replace(/\.js$/, '')] = join('packages/agent', source);
  };
  for (const target of Object.values(exportsField)) {
    const source = typeof target === 'object' ? target['@glimpse/source'] : undefined;
    if (typeof source === 'string') add(target.default, source);
    else if (source !== undefined)
      for (const condition of Object.keys(source)) add(target[condition], source[condition]);
  }
  return {
    ...entries,
    'mcp-worker': 'packages/agent/src/entries/mcp-worker.ts', // loaded by the view-worker pool from beside its bundle
  };
}

/** Keeps every bare import external: npm dependencies and the other workspace packages alike. */
export const externalDependencies = {
  name: 'external-dependencies',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => ({ path: args.path, external: true }));
  },
};

/**
 * For the CLI's entry: each command commands.ts imports lazily (`import('./process.js')`) becomes the external
 * file `./cli-process.js` beside cli.js, and its name is added to `found`.
 */
function commandsAsFiles(found, extension) {
  return {
    name: 'commands-as-files',
    setup(b) {
      b.onResolve({ filter: /^\.\/[a-z-]+\.js$/ }, (args) => {
        if (args.kind !== 'dynamic-import' || resolve(args.importer) !== COMMANDS_MODULE) return undefined;
        const name = basename(args.path, '.js');
        found.add(name);
        return { path: `./cli-${name}${extension}`, external: true };
      });
    },
  };
}

/** A one-file command importing a local module lazily would have it inlined, its npm imports made static: refuse. */
const noLocalDynamicImports = {
  name: 'no-local-dynamic-imports',
  setup(b) {
    b.onResolve({ filter: /^\./ }, (args) =>
      args.kind === 'dynamic-import' && resolve(args.importer).startsWith(AGENT_SOURCE)
        ? { errors: [{ text: `${args.importer} imports ${args.path} lazily: build its command in the split build` }] }
        : undefined,
    );
  },
};

/** The source files in an output and in the chunks it imports: statically only, or lazily too. */
function inputsReached(outputs, start, { lazily }) {
  const inputs = new Set();
  const queue = [start];
  const seen = new Set();
  for (let path = queue.pop(); path !== undefined; path = queue.pop()) {
    if (seen.has(path)) continue;
    seen.add(path);
    for (const [input, { bytesInOutput }] of Object.entries(outputs[path]?.inputs ?? {}))
      if (bytesInOutput > 0) inputs.add(input);
    for (const imported of outputs[path]?.imports ?? [])
      if (!imported.external && (lazily || imported.kind === 'import-statement')) queue.push(imported.path);
  }
  return [...inputs];
}

/** A command that may reach the file tools' default file system sets it at start-up (cli/local-disk.ts), or the build fails. */
function checkDefaultFileSystem(outputs) {
  for (const [path, output] of Object.entries(outputs)) {
    const command = /\/cli\/([a-z-]+)\.ts$/.exec(output.entryPoint ?? '')?.[1];
    if (command === undefined) continue;
    const uses = inputsReached(outputs, path, { lazily: true }).some((input) =>
      input.endsWith('packages/agent/src/fs/default-file-system.ts'),
    );
    const sets = inputsReached(outputs, path, { lazily: false }).some((input) =>
      input.endsWith('packages/agent/src/cli/local-disk.ts'),
    );
    if (uses && !sets)
      throw new Error(
        `glimpse ${command} uses the default file system, which nothing sets: import ./local-disk.js in cli/${command}.ts`,
      );
  }
}

/** Builds into `outdir` (default packages/agent/dist) and returns esbuild's metafile (every build's, merged); `overrides` are esbuild options (tests bundle the media core in). */
export async function buildAgent({ outdir = resolve('packages/agent/dist'), ...overrides } = {}) {
  const options = {
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['@glimpse/source'],
    plugins: [externalDependencies],
    logLevel: 'warning',
    sourcemap: true,
    metafile: true,
    ...overrides,
  };
  // The entry first: it names the commands.
  const commands = new Set();
  const entry = await build({
    ...options,
    entryPoints: { cli: CLI_ENTRY },
    plugins: [commandsAsFiles(commands, options.outExtension?.['.js'] ?? '.js'), ...options.plugins],
  });
  const cliEntry = (name) => [`cli-${name}`, `packages/agent/src/cli/${name}.ts`];
  const names = [...commands];
  const results = await Promise.all([
    build({
      ...options,
      entryPoints: {
        ...agentEntryPoints(),
        ...Object.fromEntries(names.filter((name) => !ONE_FILE_COMMANDS.has(name)).map(cliEntry)),
      },
      splitting: true,
      chunkNames: '[name]-[hash]',
    }),
    build({
      ...options,
      entryPoints: Object.fromEntries(names.filter((name) => ONE_FILE_COMMANDS.has(name)).map(cliEntry)),
      plugins: [noLocalDynamicImports, ...options.plugins],
    }),
  ]);
  const metafile = { inputs: {}, outputs: {} };
  for (const result of [entry, ...results]) {
    Object.assign(metafile.inputs, result.metafile.inputs);
    Object.assign(metafile.outputs, result.metafile.outputs);
  }
  checkDefaultFileSystem(metafile.outputs);
  const written = new Set(Object.keys(metafile.outputs).map((path) => resolve(path)));
  // Chunks and command files of earlier builds.
  await removeStale([outdir], written, (name) => /-[A-Z0-9]{8}\.js(\.map)?$|^cli-[a-z-]+\.m?js(\.map)?$/.test(name));
  return metafile;
}
