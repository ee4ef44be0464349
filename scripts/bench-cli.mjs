// The CLI rows of `npm run bench`: whole-process time of `glimpse inspect` and `glimpse process` on the
// sample photo, against `node -e 0`, against a script that calls the media core directly (what the CLI
// would cost with no overhead of its own) and against a plain sharp script doing the process job (turn
// upright, fit within 2000 px, JPEG at glimpse's quality 85). Runs alternate between the variants every
// repetition, so a busy machine slows them alike; CPU time (user + system, from the shell's `times`) is
// reported beside wall time, and each process's peak RSS (VmHWM, which a preload reads as it exits).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** Targets from issue 13: the CLI's whole process within these factors of the direct script's. */
export const CLI_TARGETS = { inspect: 1.3, process: 1.1 };
/** Issue 27: `glimpse process` within this factor of the plain sharp script's whole process (wall and CPU). */
export const SHARP_SCRIPT_TARGET = 1.1;

/**
 * Runs `argv` once under `sh`, returning wall and CPU milliseconds of the child (CPU from `times`, 10 ms
 * ticks) and its peak RSS in KB: node children load `peakRss` (--require), which writes VmHWM to the file
 * named in GLIMPSE_PEAK_RSS as the process exits.
 */
function timeProcess(argv, peakRss) {
  const started = performance.now();
  const result = spawnSync('sh', ['-c', '"$@" >/dev/null || exit 97; times', 'sh', ...argv], {
    encoding: 'utf8',
    env: { ...process.env, GLIMPSE_PEAK_RSS: peakRss.file },
  });
  const wall = performance.now() - started;
  if (result.status !== 0) throw new Error(`${argv.join(' ')} failed: ${result.stderr}`);
  // `times` prints the shell's own user/system time, then its children's: "0m0.120s 0m0.030s".
  const children = result.stdout.trim().split('\n').at(-1) ?? '';
  const cpu = [...children.matchAll(/(\d+)m([\d.]+)s/g)].reduce(
    (sum, [, m, s]) => sum + Number(m) * 60_000 + Number(s) * 1000,
    0,
  );
  return { wall, cpu, rssKb: Number(readFileSync(peakRss.file, 'utf8')) };
}

/** The preload that reports a node process's peak RSS (VmHWM) when it exits. */
function peakRssPreload(dir) {
  const script = path.join(dir, 'peak-rss.cjs');
  writeFileSync(
    script,
    `process.on('exit', () => { const m = /VmHWM:\\s*(\\d+) kB/.exec(require('fs').readFileSync('/proc/self/status', 'utf8')); require('fs').writeFileSync(process.env.GLIMPSE_PEAK_RSS, m ? m[1] : '0'); });\n`,
  );
  return { script, file: path.join(dir, 'peak-rss.txt') };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Writes the direct scripts (plain Node ESM importing the built media core, or sharp) into `dir`. */
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
  const sharp = path.join(dir, 'sharp-process.mjs');
  writeFileSync(
    sharp,
    `import { createRequire } from 'node:module';\nconst sharp = createRequire(${JSON.stringify(path.join(root, 'package.json'))})('sharp');\n` +
      `const info = await sharp(process.argv[2]).rotate().resize(2000, 2000, { fit: 'inside', withoutEnlargement: true }).jpeg({ quality: 85 }).toFile(process.argv[3]);\nconsole.log(JSON.stringify(info));\n`,
  );
  return { inspect, process, sharp };
}

/**
 * Measures the CLI and returns the Markdown section plus the target checks (`[text, ok]`).
 * `input` is the file both commands read (the README's sample photo).
 */
export function benchCli({ root, input, reps }) {
  const dir = path.join(os.tmpdir(), 'glimpse-bench-cli');
  const direct = directScripts(root, dir);
  const cli = path.join(root, 'packages/agent/bin/glimpse.js');
  const peakRss = peakRssPreload(dir);
  const node = [process.execPath, '--require', peakRss.script];
  const out = (name) => path.join(dir, name);
  const variants = {
    'node -e 0': [...node, '-e', '0'],
    'inspect, direct script': [...node, direct.inspect, input],
    'glimpse inspect': [...node, cli, 'inspect', input],
    'process, direct script': [...node, direct.process, input, out('direct.jpg')],
    'process, plain sharp script': [...node, direct.sharp, input, out('sharp.jpg')],
    'glimpse process': [...node, cli, 'process', input, '-o', out('cli.jpg')],
  };
  const names = Object.keys(variants);
  for (const name of names) timeProcess(variants[name], peakRss); // warm the file cache
  const samples = Object.fromEntries(names.map((name) => [name, []]));
  for (let rep = 0; rep < reps; rep++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + rep) % names.length];
      samples[name].push(timeProcess(variants[name], peakRss));
    }
  }
  const wall = (name) => median(samples[name].map((s) => s.wall));
  const cpu = (name) => median(samples[name].map((s) => s.cpu));
  const rss = (name) => Math.max(...samples[name].map((s) => s.rssKb)) / 1024;
  const lines = [
    `### Whole \`glimpse\` process on ${path.basename(input)} (median of ${reps} alternating runs each; peak RSS: the highest of them)`,
    '| command | wall ms | CPU ms | peak RSS MB | wall × node -e 0 | wall × direct script | CPU × direct script | wall × sharp script | CPU × sharp script |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const checks = [];
  const times = (a, b, measure) => (measure(a) / measure(b)).toFixed(2);
  for (const name of names) {
    const command = name.startsWith('glimpse ') ? name.slice('glimpse '.length) : undefined;
    const direct = command === undefined ? undefined : `${command}, direct script`;
    const vsDirect = (measure) => (direct === undefined ? '' : times(name, direct, measure));
    const vsSharp = (measure) => (command === 'process' ? times(name, 'process, plain sharp script', measure) : '');
    lines.push(
      `| ${name} | ${wall(name).toFixed(0)} | ${cpu(name).toFixed(0)} | ${rss(name).toFixed(0)} | ${times(name, 'node -e 0', wall)} | ${vsDirect(wall)} | ${vsDirect(cpu)} | ${vsSharp(wall)} | ${vsSharp(cpu)} |`,
    );
    if (command !== undefined && direct !== undefined) {
      const target = CLI_TARGETS[command];
      const factor = wall(name) / wall(direct);
      checks.push([
        `glimpse ${command}: whole process within ${target}× the direct script (${factor.toFixed(2)}× wall, ${times(name, direct, cpu)}× CPU)`,
        factor <= target,
      ]);
    }
    if (command === 'process') {
      const sharpScript = 'process, plain sharp script';
      checks.push([
        `glimpse process: whole process within ${SHARP_SCRIPT_TARGET}× a plain sharp script's (${times(name, sharpScript, wall)}× wall, ${times(name, sharpScript, cpu)}× CPU)`,
        cpu(name) <= SHARP_SCRIPT_TARGET * cpu(sharpScript),
      ]);
      checks.push([
        `glimpse process: peak RSS at or below the plain sharp script's (${rss(name).toFixed(0)} vs ${rss(sharpScript).toFixed(0)} MB)`,
        rss(name) <= rss(sharpScript),
      ]);
    }
  }
  return { lines, checks };
}
