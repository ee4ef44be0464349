// The CLI rows of `npm run bench`: whole-process time of `glimpse inspect` and `glimpse process` on the
// sample photo, against `node -e 0` and against a script that calls the media core directly (what the CLI
// would cost with no overhead of its own). Runs alternate between the variants every repetition, so a
// busy machine slows them alike; CPU time (user + system, from the shell's `times`) is reported beside wall time.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** Targets from issue 13: the CLI's whole process within these factors of the direct script's. */
export const CLI_TARGETS = { inspect: 1.3, process: 1.1 };

/** Runs `argv` once under `sh`, returning wall and CPU milliseconds of the child (CPU from `times`, 10 ms ticks). */
function timeProcess(argv) {
  const started = performance.now();
  const result = spawnSync('sh', ['-c', '"$@" >/dev/null || exit 97; times', 'sh', ...argv], { encoding: 'utf8' });
  const wall = performance.now() - started;
  if (result.status !== 0) throw new Error(`${argv.join(' ')} failed: ${result.stderr}`);
  // `times` prints the shell's own user/system time, then its children's: "0m0.120s 0m0.030s".
  const children = result.stdout.trim().split('\n').at(-1) ?? '';
  const cpu = [...children.matchAll(/(\d+)m([\d.]+)s/g)].reduce(
    (sum, [, m, s]) => sum + Number(m) * 60_000 + Number(s) * 1000,
    0,
  );
  return { wall, cpu };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Writes the two direct scripts (plain Node ESM importing the built media core) into `dir`. */
function directScripts(root, dir) {
  mkdirSync(dir, { recursive: true });
  const media = pathToFileURL(path.join(root, 'packages/media/dist/node.js')).href;
  const inspect = path.join(dir, 'direct-inspect.mjs');
  const process = path.join(dir, 'direct-process.mjs');
  writeFileSync(
    inspect,
    `import { readFileSync } from 'node:fs';\nimport { probe } from ${JSON.stringify(media)};\nconsole.log(JSON.stringify(await probe(new Uint8Array(readFileSync(process.argv[2])))));\n`,
  );
  writeFileSync(
    process,
    `import { readFileSync, writeFileSync } from 'node:fs';\nimport { process as fit } from ${JSON.stringify(media)};\n` +
      `const { data, ...summary } = await fit(new Uint8Array(readFileSync(process.argv[2])));\nwriteFileSync(process.argv[3], data);\nconsole.log(JSON.stringify(summary));\n`,
  );
  return { inspect, process };
}

/**
 * Measures the CLI and returns the Markdown section plus the target checks (`[text, ok]`).
 * `input` is the file both commands read (the README's sample photo).
 */
export function benchCli({ root, input, reps }) {
  const dir = path.join(os.tmpdir(), 'glimpse-bench-cli');
  const direct = directScripts(root, dir);
  const cli = path.join(root, 'packages/agent/bin/glimpse.js');
  const node = process.execPath;
  const out = (name) => path.join(dir, name);
  const variants = {
    'node -e 0': [node, '-e', '0'],
    'inspect, direct script': [node, direct.inspect, input],
    'glimpse inspect': [node, cli, 'inspect', input],
    'process, direct script': [node, direct.process, input, out('direct.jpg')],
    'glimpse process': [node, cli, 'process', input, '-o', out('cli.jpg')],
  };
  const names = Object.keys(variants);
  for (const name of names) timeProcess(variants[name]); // warm the file cache
  const samples = Object.fromEntries(names.map((name) => [name, []]));
  for (let rep = 0; rep < reps; rep++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + rep) % names.length];
      samples[name].push(timeProcess(variants[name]));
    }
  }
  const wall = (name) => median(samples[name].map((s) => s.wall));
  const cpu = (name) => median(samples[name].map((s) => s.cpu));
  const lines = [
    `### Whole \`glimpse\` process on ${path.basename(input)} (median of ${reps} alternating runs each)`,
    '| command | wall ms | CPU ms | wall × node -e 0 | wall × direct script | CPU × direct script |',
    '|---|---:|---:|---:|---:|---:|',
  ];
  const checks = [];
  const times = (a, b, measure) => (measure(a) / measure(b)).toFixed(2);
  for (const name of names) {
    const command = name.startsWith('glimpse ') ? name.slice('glimpse '.length) : undefined;
    const direct = command === undefined ? undefined : `${command}, direct script`;
    const vsDirect = (measure) => (direct === undefined ? '' : times(name, direct, measure));
    lines.push(
      `| ${name} | ${wall(name).toFixed(0)} | ${cpu(name).toFixed(0)} | ${times(name, 'node -e 0', wall)} | ${vsDirect(wall)} | ${vsDirect(cpu)} |`,
    );
    if (command !== undefined && direct !== undefined) {
      const target = CLI_TARGETS[command];
      const factor = wall(name) / wall(direct);
      checks.push([
        `glimpse ${command}: whole process within ${target}× the direct script (${factor.toFixed(2)}× wall, ${times(name, direct, cpu)}× CPU)`,
        factor <= target,
      ]);
    }
  }
  return { lines, checks };
}
