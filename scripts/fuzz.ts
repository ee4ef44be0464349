// Mutation fuzzer over every decoder: `npm run fuzz -- --seconds N`.
// Each input is a seed file with structure-aware edits (scripts/fuzz/mutate.ts), chosen by a PRNG seeded
// from (--seed, format, index), so any input can be made again. Inputs run in a child process with a time
// limit (scripts/fuzz/child-runner.ts). Untyped errors, crashes, hangs, outputs over the limits, outputs a
// strict decoder refuses and codec chatter are findings: each is saved to test/fuzz/reproducers/ (input +
// JSON sidecar), where test/fuzz/reproducers.test.ts turns it into a regression test.
//
// Options: --help          this text
//          --seconds N     time per format (default 60)
//          --inputs N      at most N inputs per format
//          --formats a,b   formats to fuzz (default all: jpeg,png,webp,gif,bmp,svg,pdf,tiff,ico,avif,heic)
//          --seed N        run seed (default 1); --start N first input index (default 0)
//          --timeout-ms N  time limit per input (default 10000)
//          --jobs N        child processes per format (default 1)
//          --save DIR      where reproducers go (default test/fuzz/reproducers); --no-save to keep none
//          --json FILE     also write the summary as JSON
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ProcessOptions } from '@glimpse/media';
import { ChildRunner } from './fuzz/child-runner.js';
import { fuzzInput } from './fuzz/inputs.js';
import { inputSeed, prng } from './fuzz/mutate.js';
import { EXTENSIONS, FUZZ_FORMATS, type FuzzFormat, seedsFor } from './fuzz/seeds.js';
import type { FindingKind, Verdict } from './fuzz/verdict.js';
import { exitWithUsageIfAsked } from './usage.mjs';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));

function parseArguments(argv: readonly string[]) {
  const value = (name: string, fallback: string) => {
    const at = argv.indexOf(`--${name}`);
    return at >= 0 && argv[at + 1] !== undefined ? (argv[at + 1] as string) : fallback;
  };
  const number = (name: string, fallback: number) => {
    const parsed = Number(value(name, String(fallback)));
    if (Number.isNaN(parsed) || parsed < 0) throw new Error(`--${name} takes a non-negative number`);
    return parsed;
  };
  const formats = value('formats', FUZZ_FORMATS.join(',')).split(',');
  for (const format of formats)
    if (!FUZZ_FORMATS.includes(format as FuzzFormat))
      throw new Error(`unknown format ${format}; choose from ${FUZZ_FORMATS.join(', ')}`);
  return {
    seconds: number('seconds', 60),
    inputs: number('inputs', Number.POSITIVE_INFINITY),
    formats: formats as FuzzFormat[],
    seed: number('seed', 1),
    start: number('start', 0),
    timeoutMs: number('timeout-ms', 10_000),
    jobs: Math.max(1, number('jobs', 1)),
    save: argv.includes('--no-save') ? undefined : resolve(value('save', join(root, 'test/fuzz/reproducers'))),
    json: argv.includes('--json') ? resolve(value('json', 'fuzz-summary.json')) : undefined,
  };
}

interface FormatSummary {
  format: FuzzFormat;
  inputs: number;
  seconds: number;
  perSecond: number;
  /** Estimated seconds for 100,000 inputs at this rate with this many jobs. */
  secondsPer100k: number;
  outputs: number;
  passthrough: number;
  refused: Record<string, number>;
  findings: Partial<Record<FindingKind, number>>;
  reproducers: string[];
}

/** Findings that look alike (same kind, same message up to numbers) keep at most three reproducers. */
function signature(format: FuzzFormat, finding: FindingKind, detail: string): string {
  return `${format}:${finding}:${detail.split('\n')[0]?.replace(/\d+/g, 'N').slice(0, 160)}`;
}

async function fuzzFormat(format: FuzzFormat, options: ReturnType<typeof parseArguments>): Promise<FormatSummary> {
  const seeds = await seedsFor(format);
  const summary: FormatSummary = {
    format,
    inputs: 0,
    seconds: 0,
    perSecond: 0,
    secondsPer100k: 0,
    outputs: 0,
    passthrough: 0,
    refused: {},
    findings: {},
    reproducers: [],
  };
  const seen = new Map<string, number>();
  const runners = Array.from({ length: options.jobs }, () => new ChildRunner(options.timeoutMs));
  let next = options.start;
  const started = performance.now();
  const deadline = started + options.seconds * 1000;
  await Promise.all(runners.map((runner) => runner.run({ bytes: seeds[0] as Uint8Array, options: {} }))); // start-up is not counted as fuzzing time
  const fuzzStart = performance.now();
  const worker = async (runner: ChildRunner) => {
    while (performance.now() < deadline + (fuzzStart - started) && next - options.start < options.inputs) {
      const index = next++;
      const input = fuzzInput(format, seeds, prng(inputSeed(options.seed, format, index)));
      const verdict: Verdict = await runner.run(input);
      summary.inputs++;
      if (verdict.outcome === 'output') {
        summary.outputs++;
        if (verdict.passthrough) summary.passthrough++;
      } else if (verdict.outcome === 'refused') {
        summary.refused[verdict.code] = (summary.refused[verdict.code] ?? 0) + 1;
      } else {
        summary.findings[verdict.finding] = (summary.findings[verdict.finding] ?? 0) + 1;
        const key = signature(format, verdict.finding, verdict.detail);
        const count = (seen.get(key) ?? 0) + 1;
        seen.set(key, count);
        if (count === 1)
          globalThis.process.stdout.write(
            `\n  ${format} #${index}: ${verdict.finding}: ${verdict.detail.split('\n')[0]}\n`,
          );
        if (options.save && count <= 3)
          summary.reproducers.push(saveReproducer(options.save, format, index, options.seed, input, verdict));
      }
    }
  };
  await Promise.all(runners.map(worker));
  for (const runner of runners) runner.close();
  summary.seconds = (performance.now() - fuzzStart) / 1000;
  summary.perSecond = summary.inputs / summary.seconds;
  summary.secondsPer100k = 100_000 / summary.perSecond;
  return summary;
}

function saveReproducer(
  directory: string,
  format: FuzzFormat,
  index: number,
  seed: number,
  input: { bytes: Uint8Array; options: ProcessOptions },
  verdict: Extract<Verdict, { outcome: 'finding' }>,
): string {
  mkdirSync(directory, { recursive: true });
  const hash = createHash('sha256').update(input.bytes).digest('hex').slice(0, 12);
  const name = `${format}-${verdict.finding}-${hash}`;
  const inputFile = `${name}.${EXTENSIONS[format]}`;
  if (!existsSync(join(directory, inputFile))) writeFileSync(join(directory, inputFile), input.bytes);
  const sidecar = {
    input: inputFile,
    options: input.options,
    finding: verdict.finding,
    detail: verdict.detail.split('\n')[0],
    foundBy: `npm run fuzz -- --formats ${format} --seed ${seed} --start ${index} --inputs 1`,
  };
  writeFileSync(join(directory, `${name}.json`), `${JSON.stringify(sidecar, null, 2)}\n`);
  return relative(root, join(directory, inputFile));
}

function table(summaries: readonly FormatSummary[], jobs: number): string {
  const rows = summaries.map((s) => {
    const refused = Object.values(s.refused).reduce((a, b) => a + b, 0);
    const findings =
      Object.entries(s.findings)
        .map(([kind, n]) => `${kind} ${n}`)
        .join(', ') || 'none';
    return `| ${s.format} | ${s.inputs} | ${s.seconds.toFixed(0)} | ${s.perSecond.toFixed(1)} | ${(s.secondsPer100k / 60).toFixed(0)} min | ${s.outputs} (${s.passthrough} passed through) | ${refused} | ${findings} |`;
  });
  return [
    `| decoder | inputs | seconds | inputs/s (${jobs} job${jobs > 1 ? 's' : ''}) | 100,000 inputs | outputs | typed refusals | findings |`,
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}

async function main(): Promise<void> {
  exitWithUsageIfAsked(import.meta.url, globalThis.process.argv);
  const options = parseArguments(globalThis.process.argv.slice(2));
  const summaries: FormatSummary[] = [];
  for (const format of options.formats) {
    globalThis.process.stdout.write(
      `fuzzing ${format} for ${options.seconds} s (seed ${options.seed}, from input ${options.start}) …`,
    );
    const summary = await fuzzFormat(format, options);
    summaries.push(summary);
    globalThis.process.stdout.write(` ${summary.inputs} inputs, ${summary.perSecond.toFixed(1)}/s\n`);
  }
  console.log(`\n${table(summaries, options.jobs)}`);
  const reproducers = summaries.flatMap((s) => s.reproducers);
  if (reproducers.length > 0)
    console.log(
      `\nreproducers saved (each is now a regression test in test/fuzz/reproducers.test.ts):\n  ${reproducers.join('\n  ')}`,
    );
  if (options.json)
    writeFileSync(
      options.json,
      `${JSON.stringify({ seed: options.seed, jobs: options.jobs, timeoutMs: options.timeoutMs, summaries }, null, 2)}\n`,
    );
  const total = summaries.reduce((sum, s) => sum + Object.values(s.findings).reduce((a, b) => a + (b ?? 0), 0), 0);
  globalThis.process.exitCode = total > 0 ? 1 : 0;
}

await main();
