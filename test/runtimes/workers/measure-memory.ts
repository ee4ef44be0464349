// Measures, for each input, a Worker's peak memory growth while it processes that input in a fresh
// workerd process (isolate-memory.ts). Used by `npm run bench` (its workerd column) and by hand.
// Usage: node scripts/run-ts.mjs test/runtimes/workers/measure-memory.ts [--options JSON] [--json] [--with-cases] [input ...]
// Inputs are file names of scripts/bench-inputs.mjs (default, or added by --with-cases: the Workers
// memory cases). Build the runtime bundles first (node scripts/build-runtimes.mjs).
import { readFile } from 'node:fs/promises';
import { Miniflare } from 'miniflare';
import { inputPath } from '../../../scripts/bench-inputs.mjs';
import { describeObservation } from '../run-vectors.js';
import { measureIsolatePeak } from './isolate-memory.js';
import { MEMORY_CASES, memoryBudget } from './memory-cases.js';
import { buildWorker } from './worker-server.js';

const args = globalThis.process.argv.slice(2);
const optionsAt = args.indexOf('--options');
const options: object = optionsAt >= 0 ? JSON.parse(args[optionsAt + 1] ?? '{}') : {};
const json = args.includes('--json');
const named = args.filter((arg, i) => !arg.startsWith('--') && (optionsAt < 0 || i !== optionsAt + 1));
const withCases = named.length === 0 || args.includes('--with-cases');
const inputs = [...new Set([...(withCases ? MEMORY_CASES.map((entry) => entry.input) : []), ...named])];
const caseLabels = new Map(MEMORY_CASES.map((entry) => [entry.input, entry.label]));
const frameAllowances = new Map(MEMORY_CASES.map((entry) => [entry.input, entry.decodedFrameBytes]));

const serverOptions = await buildWorker();
const miniflare = new Miniflare(serverOptions);
const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
interface Measured {
  inputBytes: number;
  peakGrowthBytes: number;
  /** Pages of workerd's executable the job faulted in, not counted (isolate-memory.ts). */
  fileGrowthBytes: number;
  idleBytes: number;
  budgetBytes?: number;
  result: string;
  wasmCreatedBytes: number;
  /** The case's label, for the Workers memory cases. */
  memoryCase?: string;
}
const results: Record<string, Measured> = {};
try {
  for (const input of inputs) {
    const bytes = new Uint8Array(await readFile(await inputPath(input)));
    const { idleBytes, peakGrowthBytes, fileGrowthBytes, answer } = await measureIsolatePeak(
      miniflare,
      serverOptions,
      bytes,
      options,
    );
    const observed = answer.observed;
    const budgetBytes =
      'width' in observed
        ? memoryBudget(bytes.byteLength, observed.width * observed.height, frameAllowances.get(input))
        : undefined;
    const memoryCase = withCases ? caseLabels.get(input) : undefined;
    results[input] = {
      inputBytes: bytes.byteLength,
      peakGrowthBytes,
      fileGrowthBytes,
      idleBytes,
      budgetBytes,
      result: describeObservation(observed),
      wasmCreatedBytes: answer.memory.created,
      memoryCase,
    };
    if (!json) {
      const over = budgetBytes !== undefined && peakGrowthBytes > budgetBytes ? ': OVER BUDGET' : '';
      const budget = budgetBytes === undefined ? '' : ` (budget ${mb(budgetBytes)} MB${over})`;
      console.log(
        `${input}: +${mb(peakGrowthBytes)} MB over ${mb(idleBytes)} MB idle${budget} (+${mb(fileGrowthBytes)} MB of workerd's executable paged in, not counted); WASM created ${mb(answer.memory.created)} MB; ${describeObservation(observed)}${answer.message ? ` — ${answer.message}` : ''}`,
      );
    }
  }
} finally {
  await miniflare.dispose();
}
if (json) console.log(JSON.stringify(results));
