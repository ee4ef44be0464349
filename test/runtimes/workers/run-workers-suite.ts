// Node side of `npm run test:workers`: bundles vector-worker.ts against the published Workers bundle
// (packages/media/dist/workerd.js, whose .wasm imports workerd compiles), serves it with miniflare on
// 127.0.0.1, POSTs every vector and checks the response bytes, checks that the inputs a Worker must take
// fit within their memory budgets (the Workers memory test), then
// measures each vector's WASM memory in a fresh isolate (test/artifacts/workers-memory.json).
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Miniflare } from 'miniflare';
import sharp from 'sharp';
import { scanPdf, textPdf } from '../../fixtures/pdf-documents.js';
import { inputPath } from '../../../scripts/bench-inputs.mjs';
import { describeObservation, differences, report, type VectorOutcome } from '../run-vectors.js';
import type { VectorManifest } from '../vector-manifest.js';
import { measureIsolatePeak, WORKER_LIMIT_BYTES } from './isolate-memory.js';
import { MEMORY_CASES, memoryBudget } from './memory-cases.js';
import { moduleSignature, type WasmMemoryUse } from './wasm-memory.js';
import { buildWorker, postToWorker, root } from './worker-server.js';

const serverOptions = await buildWorker();
const miniflare = new Miniflare(serverOptions);

const megabytes = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;

/** Module signature → .wasm file name(s), to name the memories the worker reports. */
async function wasmFileNames(): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  // Each package's own codecs are in its wasm/, its dependencies' copied to dist/wasm/ (scripts/build-runtimes.mjs).
  const directories = ['packages/media/wasm', 'packages/media/dist/wasm', 'packages/heif/wasm'];
  for (const directory of directories.map((path) => resolve(root, path))) {
    for (const file of (await readdir(directory)).filter((name) => name.endsWith('.wasm'))) {
      const signature = moduleSignature(await WebAssembly.compile(await readFile(resolve(directory, file))));
      const name = file.replace(/(-[0-9a-f]{8})?\.wasm$/, ''); // a copy in dist/wasm/ is <codec>-<sha256 prefix>.wasm
      names.set(signature, names.has(signature) ? `${names.get(signature)}|${name}` : name);
    }
  }
  return names;
}

function namedModules(use: WasmMemoryUse, names: Map<string, string>): string {
  return Object.entries(use.byModule)
    .sort(([, a], [, b]) => b - a)
    .map(([signature, bytes]) => `${names.get(signature) ?? signature} ${megabytes(bytes)}`)
    .join(', ');
}

/** Every vector in one isolate, as a long-lived Worker serves requests: WASM memory held accumulates. */
async function runSharedIsolate(
  url: URL,
  manifest: VectorManifest,
): Promise<{ outcomes: VectorOutcome[]; held: Record<string, WasmMemoryUse> }> {
  const outcomes: VectorOutcome[] = [];
  const held: Record<string, WasmMemoryUse> = {};
  for (const vector of manifest.vectors) {
    const input = await readFile(resolve(root, 'test/vectors/inputs', vector.input));
    const started = Date.now();
    try {
      const { observed, memory } = await postToWorker(url, input, vector.options, vector.operation);
      const found = differences(vector.expect, observed);
      held[vector.name] = memory;
      const detail = `${found.length === 0 ? describeObservation(observed) : found.join('; ')}; WASM held ${megabytes(memory.held)}`;
      outcomes.push({ name: vector.name, passed: found.length === 0, detail, milliseconds: Date.now() - started });
    } catch (error) {
      outcomes.push({
        name: vector.name,
        passed: false,
        detail: `threw ${String(error)}`,
        milliseconds: Date.now() - started,
      });
    }
  }
  return { outcomes, held };
}

/** Each vector in a fresh isolate: the WASM memory that vector alone needs. */
async function measureFreshIsolates(manifest: VectorManifest): Promise<Record<string, WasmMemoryUse>> {
  const use: Record<string, WasmMemoryUse> = {};
  for (const vector of manifest.vectors) {
    if ('error' in vector.expect) continue;
    await miniflare.setOptions(serverOptions);
    const url = await miniflare.ready;
    const input = await readFile(resolve(root, 'test/vectors/inputs', vector.input));
    use[vector.name] = (await postToWorker(url, input, vector.options, vector.operation)).memory;
  }
  return use;
}

/**
 * Inputs larger than the committed vectors, made here with sharp, each in a fresh isolate with the pixel
 * cap lifted: what the Workers default cap is chosen from. Reported, not checked byte for byte.
 */
async function measureLargeInputs(): Promise<Record<string, WasmMemoryUse & { result: string }>> {
  const photo = (width: number, height: number) =>
    sharp({
      create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } },
    }).blur(3);
  const inputs: Record<string, () => Promise<Uint8Array>> = {
    'jpeg 4000x3000 (12 MP)': () => photo(4000, 3000).jpeg({ quality: 85 }).toBuffer(),
    'jpeg 6000x4000 (24 MP)': () => photo(6000, 4000).jpeg({ quality: 85 }).toBuffer(),
    'png 3000x2000 (6 MP)': () => photo(3000, 2000).png({ compressionLevel: 1 }).toBuffer(),
    'webp 4000x3000 (12 MP)': () => photo(4000, 3000).webp({ quality: 80 }).toBuffer(),
    // PDFium decodes a page's images whole, whatever size the page is drawn at.
    'pdf page: 300 dpi letter scan (2550x3300 JPEG) at 2000 px': () => scanPdf({ width: 2550, height: 3300 }),
    'pdf page: 600 dpi letter scan (5100x6600 JPEG) at 2000 px': () => scanPdf({ width: 5100, height: 6600 }),
    'pdf page: 40 lines of text at 2000 px': () => textPdf({ embedFont: true }),
  };
  const use: Record<string, WasmMemoryUse & { result: string }> = {};
  for (const [name, make] of Object.entries(inputs)) {
    await miniflare.setOptions(serverOptions);
    const url = await miniflare.ready;
    try {
      const operation = name.startsWith('pdf') ? { renderPdfPage: 1 } : undefined;
      const answer = await postToWorker(url, new Uint8Array(await make()), { maxInputPixels: 100_000_000 }, operation);
      use[name] = { ...answer.memory, result: describeObservation(answer.observed) };
    } catch (error) {
      use[name] = { held: 0, created: 0, largest: 0, byModule: {}, result: `failed: ${String(error)}` };
    }
  }
  return use;
}

/**
 * The Workers memory test: each input a Worker must take (memory-cases.ts: Retina screenshots, 12 and 24 MP
 * photos, a 50 MP screenshot, a 40 MP GIF, a phone's HEIC, TIFFs) is processed with default options in a
 * fresh workerd process, whose peak growth (everything an isolate is charged for, isolate-memory.ts) must
 * stay within the case's budget (memoryBudget: twice the input, 8 bytes per output pixel and 24 MB, plus
 * an AVIF's decoded frame, never more than 128 MB).
 */
async function checkIsolateMemory(): Promise<VectorOutcome[]> {
  const outcomes: VectorOutcome[] = [];
  for (const { label, input, decodedFrameBytes } of MEMORY_CASES) {
    const started = Date.now();
    const name = `workers-memory ${label}`;
    try {
      const bytes = new Uint8Array(await readFile(await inputPath(input)));
      const { peakGrowthBytes, answer } = await measureIsolatePeak(miniflare, serverOptions, bytes, {});
      const observed = answer.observed;
      if (!('width' in observed)) {
        outcomes.push({
          name,
          passed: false,
          detail: `expected an output, got ${answer.message ?? describeObservation(observed)}`,
          milliseconds: Date.now() - started,
        });
        continue;
      }
      const budget = memoryBudget(bytes.byteLength, observed.width * observed.height, decodedFrameBytes);
      outcomes.push({
        name,
        passed: peakGrowthBytes <= budget,
        detail: `+${megabytes(peakGrowthBytes)} of its budget ${megabytes(budget)} (Worker limit ${megabytes(WORKER_LIMIT_BYTES)}); ${describeObservation(observed)}`,
        milliseconds: Date.now() - started,
      });
    } catch (error) {
      outcomes.push({ name, passed: false, detail: `threw ${String(error)}`, milliseconds: Date.now() - started });
    }
  }
  return outcomes;
}

/**
 * PDFium stays within maxMemory in workerd too: a 300 dpi scan (62 MB of PDFium memory) is E_TOO_LARGE at
 * 40 MiB, not a white page, and renders within the Workers default of 80 MiB.
 */
async function checkWorkersPdfMemory(url: URL): Promise<VectorOutcome[]> {
  const scan = await scanPdf({ width: 2550, height: 3300 });
  const outcomes: VectorOutcome[] = [];
  for (const { name, options, refused } of [
    { name: 'workers-pdf-memory-refuses-past-maxMemory', options: { maxMemory: 40 * 1024 * 1024 }, refused: true },
    { name: 'workers-pdf-memory-default-takes-a-300dpi-scan', options: {}, refused: false },
  ]) {
    const started = Date.now();
    const answer = await postToWorker(url, scan, options, { renderPdfPage: 1 });
    const wasRefused = 'error' in answer.observed && answer.observed.error === 'E_TOO_LARGE';
    const rendered = 'width' in answer.observed && answer.observed.width === 1545 && answer.observed.height === 2000;
    const detail = answer.message ?? describeObservation(answer.observed);
    outcomes.push({
      name,
      passed: refused ? wasRefused : rendered,
      detail: `${refused ? 'expected E_TOO_LARGE' : 'expected a 1545x2000 page'}: ${detail}`,
      milliseconds: Date.now() - started,
    });
  }
  return outcomes;
}

let failed = 1;
try {
  const url = await miniflare.ready;
  const manifest: VectorManifest = JSON.parse(await readFile(resolve(root, 'test/vectors/manifest.json'), 'utf8'));
  const { outcomes, held } = await runSharedIsolate(url, manifest);
  outcomes.push(...(await checkWorkersPdfMemory(url)));
  outcomes.push(...(await checkIsolateMemory()));
  const fresh = await measureFreshIsolates(manifest);
  const large = await measureLargeInputs();
  const memoryReport = {
    vectors: manifest.vectors.map((vector) => ({
      name: vector.name,
      heldInSharedIsolate: held[vector.name],
      freshIsolate: fresh[vector.name],
    })),
    largeInputs: large,
  };
  await mkdir(resolve(root, 'test/artifacts'), { recursive: true });
  await writeFile(resolve(root, 'test/artifacts/workers-memory.json'), `${JSON.stringify(memoryReport, null, 2)}\n`);
  const result = report('workers', outcomes);
  console.log(result.text);
  const names = await wasmFileNames();
  console.log(
    'WASM memory per vector in a fresh isolate (largest single memory / all memories created; live after the request):',
  );
  for (const [name, use] of Object.entries(fresh))
    console.log(`  ${name}: ${megabytes(use.largest)} / ${megabytes(use.created)}; ${namedModules(use, names)}`);
  console.log('Larger inputs, fresh isolate, pixel cap lifted (largest single memory / all memories created):');
  for (const [name, use] of Object.entries(large))
    console.log(
      `  ${name}: ${megabytes(use.largest)} / ${megabytes(use.created)}; ${namedModules(use, names)}; ${use.result}`,
    );
  const last = manifest.vectors.at(-1);
  const finalUse = last ? held[last.name] : undefined;
  if (finalUse)
    console.log(
      `WASM held by the shared isolate after all vectors: ${megabytes(finalUse.held)}: ${namedModules(finalUse, names)}`,
    );
  failed = outcomes.length > 1 ? result.failed : 1;
} finally {
  await miniflare.dispose();
}
globalThis.process.exit(failed === 0 ? 0 : 1);
