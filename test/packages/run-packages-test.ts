// `npm run test:packages`: the published packages as a user gets them. Packs each package with `npm pack`
// (its prepack builds the JS and generates the .d.ts), installs the tarballs into an empty project outside
// the repository, and there: runs the README's job in Node, `npx glimpse`, a Deno script, an app bundled by
// Vite and by esbuild in Chromium and a Worker bundle in workerd (miniflare), each also converting a HEIC through the optional
// @glimpse/heif, and typechecks strict consumers against the shipped .d.ts. The consumer's files are in test/packages/consumer/. Tools (vite, esbuild, deno, tsc, miniflare,
// Chromium) come from this repository; every import of @glimpse/* resolves in the consumer's node_modules.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, posix, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { PUBLISHED_PACKAGES } from '../../scripts/packages.mjs';
import { serveStatic } from '../../scripts/static-server.js';
import { launchChromium } from '../runtimes/launch-chromium.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(join(root, 'package.json'));
const run = promisify(execFile);
const tool = (specifier: string) => require.resolve(specifier);
const photo = join(root, 'samples/photo-exif6.jpg');
/** A 3×2 grid HEIC turned by irot (the shared vectors' input): @glimpse/heif makes it a 100×160 JPEG. */
const heic = join(root, 'test/vectors/inputs/grid-3x2-irot.heic');
/** The versions this repository tests with (root devDependencies): the consumer installs the same ones. */
const pinned: Record<string, string> = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')).devDependencies;

/** Every file a package's `exports` point a consumer at (types and runtime files of each subpath and condition). */
async function exportedFiles(packageDir: string): Promise<string[]> {
  const { exports } = JSON.parse(await readFile(join(root, packageDir, 'package.json'), 'utf8'));
  const files: string[] = [];
  const visit = (target: unknown, condition: string) => {
    if (condition === '@glimpse/source') return; // the sources, which are not shipped
    if (typeof target === 'string') files.push(posix.normalize(target));
    else if (typeof target === 'object' && target !== null)
      for (const [name, inner] of Object.entries(target)) visit(inner, name);
  };
  visit(exports, '');
  return files.filter((file) => file.startsWith('dist/'));
}

/** Runs a command, returning stdout; a failure carries its stderr. */
async function sh(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  try {
    return (await run(command, args, { cwd, env, maxBuffer: 64 << 20 })).stdout;
  } catch (error) {
    const { stderr, stdout } = error as { stderr?: string; stdout?: string };
    throw new Error(`${command} ${args.join(' ')} failed:\n${stderr || stdout || String(error)}`);
  }
}

function expectEqual(actual: unknown, expected: unknown, what: string): void {
  if (JSON.stringify(actual) !== JSON.stringify(expected))
    throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

const work = await mkdtemp(join(tmpdir(), 'glimpse-packages-'));
const consumer = join(work, 'consumer');
const results: { step: string; ms: number; error?: string }[] = [];

// biome-ignore lint/suspicious/noConfusingVoidType: a step may return a note or nothing at all.
async function step(name: string, body: () => Promise<string | void>): Promise<void> {
  const started = performance.now();
  try {
    const note = await body();
    results.push({ step: name, ms: performance.now() - started });
    console.log(`ok   ${name} (${((performance.now() - started) / 1000).toFixed(1)} s)${note ? `: ${note}` : ''}`);
  } catch (error) {
    results.push({ step: name, ms: performance.now() - started, error: String(error) });
    console.log(`FAIL ${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** What a package with WASM codecs ships beside its .d.ts: one bundle per runtime, and the notices of what it compiles in. */
const RUNTIME_ENTRIES = [
  'THIRD-PARTY-NOTICES.md',
  'dist/node.js',
  'dist/browser.js',
  'dist/deno.js',
  'dist/workerd.js',
];

/** A `.wasm` that a browser, Deno or Workers bundle names by a relative path: `new URL('…', import.meta.url)` or `import m from '…'`. */
const BUNDLE_WASM_REFERENCE = /(?:new URL\(|from\s*)["'](\.\.?\/[^"']+\.wasm)["']/g;

/**
 * What is wrong with a tarball's WASM: a module shipped twice (the same bytes under two paths: the bundles
 * once emitted hashed copies of the codecs that wasm/ already ships, 2 MB of 13.3 MB), or one that a runtime
 * bundle refers to and the tarball lacks. Reads the packed files, extracted with tar.
 */
async function wasmProblems(name: string, tarball: string, files: string[]): Promise<string[]> {
  const unpacked = join(work, 'unpacked', name.replace('/', '-'));
  await mkdir(unpacked, { recursive: true });
  await sh('tar', ['-xzf', tarball, '-C', unpacked], work);
  const problems: string[] = [];
  const byHash = new Map<string, string>();
  for (const path of files.filter((file) => file.endsWith('.wasm'))) {
    const hash = createHash('sha256')
      .update(await readFile(join(unpacked, 'package', path)))
      .digest('hex');
    const first = byHash.get(hash);
    if (first !== undefined) problems.push(`${name} ships the same .wasm twice: ${first} and ${path}`);
    else byHash.set(hash, path);
  }
  for (const bundle of ['dist/browser.js', 'dist/deno.js', 'dist/workerd.js'].filter((path) => files.includes(path))) {
    const references = [...(await readFile(join(unpacked, 'package', bundle), 'utf8')).matchAll(BUNDLE_WASM_REFERENCE)];
    if (references.length === 0)
      problems.push(`${name}'s ${bundle} names no .wasm (has the build's codec table changed form?)`);
    for (const [, reference = ''] of references) {
      const path = posix.join(posix.dirname(bundle), reference);
      if (!files.includes(path)) problems.push(`${name}'s ${bundle} refers to ${reference}, which it does not ship`);
    }
  }
  return problems;
}

const tarballs: string[] = [];
await step('npm pack (prepack: JS bundles and generated .d.ts)', async () => {
  const packed: { name: string; filename: string; size: number; unpackedSize: number; files: { path: string }[] }[] =
    JSON.parse(
      await sh(
        'npm',
        [
          'pack',
          '--json',
          '--pack-destination',
          work,
          ...PUBLISHED_PACKAGES.flatMap((p) => ['-w', `packages/${p.name}`]),
        ],
        root,
      ),
    );
  const problems: string[] = [];
  for (const pack of packed) {
    const files = pack.files.map((file) => file.path);
    const must = ['package.json', 'README.md', 'LICENSE', 'dist/types/index.d.ts'];
    if (pack.name === '@glimpse/media') must.push(...RUNTIME_ENTRIES, 'wasm/jpeg.wasm');
    if (pack.name === '@glimpse/heif') must.push(...RUNTIME_ENTRIES, 'wasm/heif.wasm');
    if (pack.name === '@glimpse/agent')
      must.push('bin/glimpse.js', 'dist/cli.js', 'dist/mcp-worker.js', ...(await exportedFiles('packages/agent')));
    for (const path of must) if (!files.includes(path)) problems.push(`${pack.name} lacks ${path}`);
    for (const path of files)
      if (/^src\/|\.map$|\.meta\.json$|tsconfig/.test(path)) problems.push(`${pack.name} ships ${path}`);
    tarballs.push(join(work, pack.filename));
    problems.push(...(await wasmProblems(pack.name, join(work, pack.filename), files)));
  }
  if (problems.length > 0) throw new Error(problems.join('; '));
  return packed
    .map(
      (pack) =>
        `${pack.name} ${(pack.size / 1024).toFixed(0)} KB (${(pack.unpackedSize / 1024).toFixed(0)} KB unpacked, ${pack.files.length} files)`,
    )
    .join(', ');
});

await step('npm install the tarballs into an empty project', async () => {
  await cp(join(root, 'test/packages/consumer'), consumer, { recursive: true });
  await writeFile(
    join(consumer, 'package.json'),
    `${JSON.stringify({ name: 'glimpse-consumer', private: true, type: 'module' }, null, 2)}\n`,
  );
  await cp(photo, join(consumer, 'photo-exif6.jpg'));
  await cp(heic, join(consumer, 'grid.heic'));
  await mkdir(join(consumer, 'vite-app/public'), { recursive: true });
  await cp(photo, join(consumer, 'vite-app/public/photo-exif6.jpg'));
  await cp(heic, join(consumer, 'vite-app/public/grid.heic'));
  await sh(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', ...tarballs, `@types/node@${pinned['@types/node']}`],
    consumer,
  );
});

await step('Node: the README job and every entry point, no optional peer installed', async () => {
  expectEqual((await sh(process.execPath, ['node-check.mjs'], consumer)).trim(), 'node: ok', 'node-check.mjs');
});

await step('npx glimpse --version, glimpse process', async () => {
  const { version } = JSON.parse(await readFile(join(root, 'packages/agent/package.json'), 'utf8'));
  expectEqual(
    (await sh('npx', ['--no-install', 'glimpse', '--version'], consumer)).trim(),
    version,
    'glimpse --version',
  );
  const summary = JSON.parse(
    await sh('npx', ['--no-install', 'glimpse', 'process', 'photo-exif6.jpg', '-o', 'fitted.jpg'], consumer),
  );
  expectEqual([summary.mediaType, summary.width, summary.height], ['image/jpeg', 1500, 2000], 'glimpse process');
  expectEqual(
    [...(await readFile(join(consumer, 'fitted.jpg'))).subarray(0, 2)],
    [0xff, 0xd8],
    'fitted.jpg starts a JPEG',
  );
});

await step('Deno: a script importing the packages', async () => {
  const out = JSON.parse(
    await sh(process.execPath, [tool('deno/bin.cjs'), 'run', '--allow-read', '--no-prompt', 'deno-check.ts'], consumer),
  );
  expectEqual(
    [out.mediaType, out.width, out.height, out.viewed, out.heic],
    ['image/jpeg', 2304, 3072, ['text', 'image'], ['image/jpeg', 100, 160]],
    'deno-check.ts',
  );
  if (!String(out.entry).endsWith('/dist/deno.js'))
    throw new Error(`Deno resolved @glimpse/media to ${out.entry}, not dist/deno.js`);
});

/** Serves `site` and checks what vite-app/main.js, built into it, reports in Chromium. */
async function checkPage(site: string): Promise<void> {
  const server = await serveStatic(site, { index: 'index.html' });
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.goto(server.url);
    await page.waitForFunction(() => 'glimpseResult' in window, undefined, { timeout: 120_000 });
    const result = await page.evaluate(() => (window as unknown as { glimpseResult: unknown }).glimpseResult);
    expectEqual(
      result,
      {
        mediaType: 'image/jpeg',
        // The 3000×4000 photo at claude-sonnet-4-5's working size: within 1,568 patches of 28 px.
        width: 952,
        height: 1269,
        viewed: ['text', 'image'],
        messages: 3,
        heic: ['image/jpeg', 100, 160],
      },
      'the page',
    );
  } finally {
    await browser.close();
    await server.close();
  }
}

await step('Vite: build an app, run it in Chromium', async () => {
  await sh(
    process.execPath,
    [join(dirname(tool('vite/package.json')), 'bin/vite.js'), 'build', 'vite-app', '--logLevel', 'error'],
    consumer,
  );
  await checkPage(join(consumer, 'vite-app/dist'));
});

await step('esbuild: bundle the same app, place the .wasm as the README says, run it in Chromium', async () => {
  const site = join(consumer, 'esbuild-app');
  await build({
    entryPoints: [join(consumer, 'vite-app/main.js')],
    outdir: join(site, 'js'),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    logLevel: 'error',
  });
  // esbuild keeps each `new URL('…', import.meta.url)` as it is, so the files keep their places relative to the
  // bundle: each package's wasm/ one folder up, @glimpse/media's dist/wasm/ beside it.
  const installed = (path: string) => join(consumer, 'node_modules/@glimpse', path);
  await cp(installed('media/wasm'), join(site, 'wasm'), { recursive: true });
  await cp(installed('heif/wasm'), join(site, 'wasm'), { recursive: true });
  await cp(installed('media/dist/wasm'), join(site, 'js/wasm'), { recursive: true });
  await cp(photo, join(site, 'photo-exif6.jpg'));
  await cp(heic, join(site, 'grid.heic'));
  const html = await readFile(join(consumer, 'vite-app/index.html'), 'utf8');
  await writeFile(join(site, 'index.html'), html.replace('src="./main.js"', 'src="./js/main.js"'));
  await checkPage(site);
});

await step('Worker: bundle with esbuild, run in workerd (miniflare)', async () => {
  const outdir = join(consumer, 'worker/dist');
  // As wrangler bundles a Worker: the Workers export conditions, each .wasm kept as a module import.
  await build({
    entryPoints: [join(consumer, 'worker/worker.js')],
    outdir,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['workerd', 'worker', 'browser'],
    loader: { '.wasm': 'copy' },
    logLevel: 'error',
  });
  const miniflare = new Miniflare({
    modules: true,
    scriptPath: join(outdir, 'worker.js'),
    modulesRoot: outdir,
    modulesRules: [{ type: 'CompiledWasm', include: ['**/*.wasm'] }],
    compatibilityDate: '2025-09-01',
  });
  try {
    const response = await miniflare.dispatchFetch('http://worker/', { method: 'POST', body: await readFile(photo) });
    if (!response.ok) throw new Error(`the Worker answered ${response.status}: ${await response.text()}`);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expectEqual(
      [
        response.headers.get('content-type'),
        response.headers.get('x-size'),
        response.headers.get('x-parts'),
        bytes[0],
        bytes[1],
      ],
      ['image/jpeg', '952x1269', 'image,text', 0xff, 0xd8], // Claude's 1,568 patches of 28 px
      'the Worker' /* the text notes the resize */,
    );
    const fromHeic = await miniflare.dispatchFetch('http://worker/', { method: 'POST', body: await readFile(heic) });
    if (!fromHeic.ok) throw new Error(`the Worker answered ${fromHeic.status} to the HEIC: ${await fromHeic.text()}`);
    const heicBytes = new Uint8Array(await fromHeic.arrayBuffer());
    expectEqual(
      [fromHeic.headers.get('content-type'), fromHeic.headers.get('x-size'), heicBytes[0], heicBytes[1]],
      ['image/jpeg', '100x160', 0xff, 0xd8],
      'the Worker, given a HEIC (@glimpse/heif)',
    );
  } finally {
    await miniflare.dispose();
  }
});

const tsc = tool('typescript/bin/tsc');
await step('TypeScript: a Node consumer without the provider SDKs', async () => {
  await sh(process.execPath, [tsc, '-p', 'typecheck/tsconfig.without-sdks.json'], consumer);
});

await step(
  'TypeScript: a strict Anthropic-only consumer (skipLibCheck off, no other provider SDK installed)',
  async () => {
    await sh(
      'npm',
      ['install', '--no-audit', '--no-fund', '--prefer-offline', `@anthropic-ai/sdk@${pinned['@anthropic-ai/sdk']}`],
      consumer,
    );
    for (const absent of ['openai', '@google/genai', '@aws-sdk/client-bedrock-runtime', 'ollama'])
      if (existsSync(join(consumer, 'node_modules', absent))) throw new Error(`${absent} is installed in the consumer`);
    await sh(process.execPath, [tsc, '-p', 'typecheck/tsconfig.anthropic-only.json'], consumer);
  },
);

await step(
  'TypeScript: strict consumers (noUncheckedIndexedAccess, exactOptionalPropertyTypes, skipLibCheck off)',
  async () => {
    // The serializers' request types come from the provider SDKs, optional peer dependencies of @glimpse/agent.
    const peers = Object.keys(
      JSON.parse(await readFile(join(root, 'packages/agent/package.json'), 'utf8')).peerDependencies ?? {},
    );
    // @ai-sdk/provider's .d.ts imports the types of json-schema without depending on @types/json-schema (its
    // devDependency 7.0.15), so every consumer with skipLibCheck off needs it, with glimpse or without.
    await sh(
      'npm',
      [
        'install',
        '--no-audit',
        '--no-fund',
        '--prefer-offline',
        ...peers.map((name) => `${name}@${pinned[name] ?? 'latest'}`),
        '@types/json-schema@7.0.15',
      ],
      consumer,
    );
    await sh(process.execPath, [tsc, '-p', 'typecheck/tsconfig.browser.json'], consumer);
    // pi-ai carries its own @anthropic-ai/sdk (0.91.1), whose .d.mts name undici-types by the publisher's relative
    // paths; those errors are pi's, any other error fails the step.
    const upstream =
      /^node_modules\/@mariozechner\/pi-ai\/node_modules\/@anthropic-ai\/sdk\/.*Cannot find module '[./]*node_modules\/undici-types\//;
    const errors = await sh(process.execPath, [tsc, '-p', 'typecheck/tsconfig.node.json'], consumer).then(
      () => [],
      (error: Error) => {
        const lines = error.message.split('\n').filter((line) => /error TS\d+/.test(line));
        if (lines.length === 0) throw error;
        return lines;
      },
    );
    const ours = errors.filter((line) => !upstream.test(line));
    if (ours.length > 0) throw new Error(ours.join('\n'));
    return errors.length > 0 ? `${errors.length} errors in pi-ai's own copy of @anthropic-ai/sdk tolerated` : undefined;
  },
);

await step('Node: a live client loads its SDK, an optional peer, from the consumer', async () => {
  expectEqual((await sh(process.execPath, ['clients-check.mjs'], consumer)).trim(), 'clients: ok', 'clients-check.mjs');
});

const failed = results.filter((result) => result.error !== undefined);
console.log(
  `${results.length - failed.length} passed, ${failed.length} failed (${(results.reduce((sum, r) => sum + r.ms, 0) / 1000).toFixed(0)} s; consumer in ${consumer})`,
);
if (failed.length === 0) await rm(work, { recursive: true, force: true });
process.exit(failed.length === 0 ? 0 : 1);
