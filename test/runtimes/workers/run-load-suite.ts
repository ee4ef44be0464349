// Workers under load (issue 30): many requests POSTed at once to one isolate of a Worker written as a user
// writes one (load-worker.ts, the published Workers entry, default options). Every request must be
// answered with a fitted image that the strict oracle reads, of the size the fit promises, or with 503
// and E_BUSY (retry-able, with Retry-After), most of them fitted; and workerd's peak growth over its idle
// size (isolate-memory.ts: everything an isolate is charged for) must stay within 112 MB, under the
// Worker's 128. Uploads at once cost workerd memory before any code runs (20 × 3.9 MB bodies to a Worker
// that only reads them: +108 MB), so a case of more requests than the governor lets wait is held to 112 MB
// beyond what its bodies alone take (body-worker.ts, measured alongside). The 8-photo case is also run
// one request after another, for the wall times in the report.
// The inputs are generated (scripts/bench-inputs.mjs, cached in the temp folder), not committed.
// Usage: node scripts/run-ts.mjs test/runtimes/workers/run-load-suite.ts (after node scripts/build-runtimes.mjs)
import { readFile } from 'node:fs/promises';
import { Miniflare, type MiniflareOptions } from 'miniflare';
import sharp from 'sharp';
import { inputPath } from '../../../scripts/bench-inputs.mjs';
import { strictProblems } from '../../support/strict-oracle.js';
import { report, type VectorOutcome } from '../run-vectors.js';
import { freshIsolate, watchPeak } from './isolate-memory.js';
import { buildWorker } from './worker-server.js';

/** The most one isolate may grow by under load: the Worker's 128 MB less room for the runtime itself. */
const MAX_GROWTH_BYTES = 112 * 2 ** 20;

/** Each input and the size its fit to 2000 px must have, upright. */
const INPUTS = {
  'photo-4000x3000-exif6.jpg': { width: 1500, height: 2000 },
  'photo-6000x4000-exif6.jpg': { width: 1333, height: 2000 },
  'screenshot-3456x2234.png': { width: 2000, height: 1293 },
  'screenshot-2880x1800.png': { width: 2000, height: 1250 },
  'photo-4000x3000.webp': { width: 2000, height: 1500 },
} as const;
type InputName = keyof typeof INPUTS;

const MIXED: InputName[] = Array.from({ length: 20 }, (_, i) => {
  const names = Object.keys(INPUTS) as InputName[];
  return names[i % names.length]!;
});

/** `bodiesAside`: the growth is held to 112 MB beyond what the case's bodies alone take. */
const CASES: { name: string; inputs: InputName[]; bodiesAside?: boolean }[] = [
  { name: '8 x 12 MP JPEG (EXIF 6)', inputs: Array(8).fill('photo-4000x3000-exif6.jpg') },
  { name: '4 x 24 MP JPEG (EXIF 6)', inputs: Array(4).fill('photo-6000x4000-exif6.jpg') },
  { name: '6 x 3456x2234 Retina PNG', inputs: Array(6).fill('screenshot-3456x2234.png') },
  { name: '20 mixed (JPEG 12 and 24 MP, Retina PNGs, WebP 12 MP)', inputs: MIXED, bodiesAside: true },
];

interface Answer {
  input: InputName;
  status: number;
  body: Uint8Array;
  mediaType: string;
  retryAfter: string | null;
}

interface LoadRun {
  answers: Answer[];
  growthBytes: number;
  idleBytes: number;
  wallMs: number;
}

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;

async function post(url: URL, input: InputName, bytes: Uint8Array): Promise<Answer> {
  const response = await fetch(url, { method: 'POST', body: new Uint8Array(bytes) });
  return {
    input,
    status: response.status,
    body: new Uint8Array(await response.arrayBuffer()),
    mediaType: response.headers.get('content-type') ?? '',
    retryAfter: response.headers.get('retry-after'),
  };
}

/** POSTs every input to one fresh isolate, all at once or one after another, and measures its growth. */
async function run(
  miniflare: Miniflare,
  serverOptions: MiniflareOptions,
  inputs: InputName[],
  files: Map<InputName, Uint8Array>,
  sequential = false,
): Promise<LoadRun> {
  const { url, pid } = await freshIsolate(miniflare, serverOptions);
  const watch = watchPeak(pid);
  const started = Date.now();
  const answers: Answer[] = [];
  let peak: ReturnType<typeof watch.stop>;
  try {
    if (sequential) for (const input of inputs) answers.push(await post(url, input, files.get(input)!));
    else answers.push(...(await Promise.all(inputs.map((input) => post(url, input, files.get(input)!)))));
  } finally {
    peak = watch.stop();
  }
  return { answers, growthBytes: peak.peakGrowthBytes, idleBytes: watch.idleBytes, wallMs: Date.now() - started };
}

/** Why an answer is neither a fitted image the strict oracle reads nor a retry-able E_BUSY; undefined when it is one. */
async function answerProblem(answer: Answer): Promise<string | undefined> {
  if (answer.status === 503) {
    const { error } = JSON.parse(new TextDecoder().decode(answer.body));
    if (error !== 'E_BUSY') return `503 with ${error}`;
    return answer.retryAfter && Number(answer.retryAfter) > 0 ? undefined : '503 without Retry-After';
  }
  if (answer.status !== 200) return `${answer.status}: ${new TextDecoder().decode(answer.body).slice(0, 200)}`;
  const problems = strictProblems(answer.body);
  if (problems.length > 0) return `the strict oracle refuses it: ${problems.join('; ')}`;
  const { width, height } = await sharp(answer.body).metadata();
  const expected = INPUTS[answer.input];
  if (width !== expected.width || height !== expected.height)
    return `${width}x${height}, not the ${expected.width}x${expected.height} its fit promises`;
  return undefined;
}

const serverOptions = await buildWorker('load-worker.ts');
const bodiesOnly = await buildWorker('body-worker.ts');
const miniflare = new Miniflare(serverOptions);
const outcomes: VectorOutcome[] = [];
const timings: string[] = [];
try {
  const files = new Map<InputName, Uint8Array>();
  for (const name of Object.keys(INPUTS) as InputName[])
    files.set(name, new Uint8Array(await readFile(await inputPath(name))));
  for (const { name, inputs, bodiesAside } of CASES) {
    const started = Date.now();
    const aside = bodiesAside ? (await run(miniflare, bodiesOnly, inputs, files)).growthBytes : 0;
    const load = await run(miniflare, serverOptions, inputs, files);
    const problems = (await Promise.all(load.answers.map(answerProblem))).filter((problem) => problem !== undefined);
    const fitted = load.answers.filter((answer) => answer.status === 200).length;
    const busy = load.answers.length - fitted;
    const withinGrowth = load.growthBytes - aside <= MAX_GROWTH_BYTES;
    const limit = bodiesAside
      ? `at most ${mb(MAX_GROWTH_BYTES)} beyond the bodies' own +${mb(aside)}`
      : `at most ${mb(MAX_GROWTH_BYTES)}`;
    outcomes.push({
      name: `load ${name}`,
      passed: problems.length === 0 && withinGrowth && fitted > busy,
      detail: `${fitted} fitted, ${busy} E_BUSY; isolate +${mb(load.growthBytes)} over ${mb(load.idleBytes)} idle (${limit}); ${load.wallMs} ms${problems.length > 0 ? `; ${[...new Set(problems)].join('; ')}` : ''}`,
      milliseconds: Date.now() - started,
    });
    timings.push(`${name}, at once: ${load.wallMs} ms, +${mb(load.growthBytes)}`);
  }
  const photos = CASES[0]!.inputs;
  const oneByOne = await run(miniflare, serverOptions, photos, files, true);
  timings.push(`${CASES[0]!.name}, one after another: ${oneByOne.wallMs} ms, +${mb(oneByOne.growthBytes)}`);
} finally {
  await miniflare.dispose();
}
const result = report('workers', outcomes);
console.log(result.text);
console.log(`Wall times (this machine, now):\n  ${timings.join('\n  ')}`);
globalThis.process.exit(result.failed === 0 && outcomes.length === CASES.length ? 0 : 1);
