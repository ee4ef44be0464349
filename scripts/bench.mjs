// `npm run bench`: glimpse's pipeline side by side with sharp (native libvips), wasm-vips and photon.
//
// Inputs are generated here with sharp (deterministic grain, gradients and hard edges), never committed.
// Warm timings run in this process, alternating pipelines every repetition; peak RSS, cold start and
// whole-process times come from one fresh `node` child per run, so each pipeline is measured alone.
// Quality: PSNR of every output against sharp's Lanczos-3 of the full-resolution input at the same size.
//
// The `glimpse` CLI's whole-process rows come from scripts/bench-cli.mjs.
//
// Usage: node scripts/bench.mjs [--reps N] [--cli-reps N] [--strict] [--cli-only] [--docs]
//   --strict: exit 1 when a target is missed; --cli-only: only the CLI rows; --docs: also write the tables
//   into docs/performance.md's generated blocks (bench, bench-cli). Internal: --child <pipeline> <job> <input>
import { spawnSync } from 'node:child_process';
import { mkdirSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { benchCli } from './bench-cli.mjs';
import { replaceRegion } from './docs/regions.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(ROOT, 'package.json'));
const MEDIA_DIST = path.join(ROOT, 'packages/media/dist/node.js');
const MAX_EDGE = 2000;
const QUALITY = 80;
/** The quality bound glimpse keeps (README "Performance"): PSNR in dB against sharp's Lanczos-3. */
const PSNR_BOUND = { photo: 38, webp: 37, screenshot: 45 };

const JOBS = {
  photo: { label: '12 MP photo JPEG → 2000 px JPEG', file: 'photo-4000x3000.jpg' },
  screenshot: { label: '3024×1964 screenshot PNG → 2000 px PNG', file: 'screenshot-3024x1964.png' },
  webp: { label: '4000×3000 WebP → 2000 px WebP', file: 'photo-4000x3000.webp' },
  passthrough: { label: '1280×800 screenshot PNG, passes through', file: 'screenshot-1280x800.png' },
};

/** Fits within MAX_EDGE, aspect kept, never enlarged (the rounding every pipeline here uses). */
function fit(width, height) {
  const scale = Math.min(1, MAX_EDGE / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

// ---------------------------------------------------------------------------------------------------
// Pipelines. Each `load()` returns `run(bytes, job) → Promise<Uint8Array>` (the bytes to send).

const PIPELINES = {
  async glimpse() {
    if (!existsSync(MEDIA_DIST)) throw new Error('packages/media/dist/node.js is missing: run `npm run build` first');
    const { process } = await import(pathToFileURL(MEDIA_DIST).href);
    return async (bytes) => (await process(bytes, { maxEdge: MAX_EDGE })).data;
  },

  async sharp() {
    const sharp = require('sharp');
    return async (bytes, job) => {
      const image = sharp(bytes);
      const { width, height } = await image.metadata();
      if (job === 'passthrough' && Math.max(width, height) <= MAX_EDGE) return bytes;
      const resized = image.resize(MAX_EDGE, MAX_EDGE, { fit: 'inside', withoutEnlargement: true });
      const encoded = job === 'photo' ? resized.jpeg({ quality: QUALITY }) : job === 'webp' ? resized.webp({ quality: QUALITY }) : resized.png();
      return new Uint8Array(await encoded.toBuffer());
    };
  },

  async 'wasm-vips'() {
    const Vips = require('wasm-vips');
    const vips = await Vips({ dynamicLibraries: [] });
    return async (bytes, job) => {
      if (job === 'passthrough') {
        const header = vips.Image.newFromBuffer(bytes);
        const small = Math.max(header.width, header.height) <= MAX_EDGE;
        header.delete();
        if (small) return bytes;
      }
      const thumb = vips.Image.thumbnailBuffer(bytes, MAX_EDGE, { height: MAX_EDGE, size: 'down' });
      const out = job === 'photo' ? thumb.writeToBuffer('.jpg', { Q: QUALITY }) : job === 'webp' ? thumb.writeToBuffer('.webp', { Q: QUALITY }) : thumb.writeToBuffer('.png');
      thumb.delete();
      return out;
    };
  },

  async photon() {
    const photon = require('@silvia-odwyer/photon-node');
    return async (bytes, job) => {
      const image = photon.PhotonImage.new_from_byteslice(bytes);
      try {
        const target = fit(image.get_width(), image.get_height());
        if (job === 'passthrough' && target.width === image.get_width()) return bytes;
        const resized = photon.resize(image, target.width, target.height, photon.SamplingFilter.Lanczos3);
        try {
          return job === 'photo' ? resized.get_bytes_jpeg(QUALITY) : job === 'webp' ? resized.get_bytes_webp() : resized.get_bytes();
        } finally {
          resized.free();
        }
      } finally {
        image.free();
      }
    };
  },
};

/**
 * This process's peak resident memory. Linux carries getrusage's maxRSS across exec (a child would report
 * the parent's peak), so read the high-water mark of this address space from /proc when it exists.
 */
function peakRssKb() {
  try {
    const match = /VmHWM:\s*(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    if (match) return Number(match[1]);
  } catch {
    // not Linux
  }
  return process.resourceUsage().maxRSS;
}

// ---------------------------------------------------------------------------------------------------
// Child mode: one cold run of one pipeline on one job, reporting its own timings and peak RSS.

async function child(pipeline, job, input) {
  const started = performance.now(); // ms since this process began: Node's own start-up
  const bytes = new Uint8Array(readFileSync(input));
  const beforeLoad = performance.now();
  const run = await PIPELINES[pipeline]();
  const loaded = performance.now();
  const out = await run(bytes, job);
  const done = performance.now();
  const second = await run(bytes, job);
  const warm = performance.now() - done;
  process.stdout.write(
    JSON.stringify({ boot: started, load: loaded - beforeLoad, first: done - loaded, warm, bytes: out.byteLength, same: second.byteLength === out.byteLength, maxRssKb: peakRssKb() }),
  );
  process.exit(0); // wasm-vips keeps worker threads alive
}

// ---------------------------------------------------------------------------------------------------
// Inputs: deterministic, photo-like and screenshot-like.

function lcg(seed) {
  let state = seed >>> 0;
  return () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

/** Gradients, soft texture, hard-edged shapes and mild grain: what a camera photo asks of a resizer. */
function photoPixels(width, height) {
  const random = lcg(42);
  const shapes = Array.from({ length: 40 }, () => ({
    x: random() * width, y: random() * height, r: 40 + random() * 400,
    colour: [random() * 255, random() * 255, random() * 255], square: random() < 0.4,
  }));
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let r = 40 + (x / width) * 170;
      let g = 60 + (y / height) * 150;
      let b = 120 + 60 * Math.sin(x / 97 + y / 131);
      for (const s of shapes) {
        const dx = x - s.x;
        const dy = y - s.y;
        const inside = s.square ? Math.abs(dx) < s.r && Math.abs(dy) < s.r * 0.6 : dx * dx + dy * dy < s.r * s.r;
        if (inside) [r, g, b] = [s.colour[0] * 0.8 + r * 0.2, s.colour[1] * 0.8 + g * 0.2, s.colour[2] * 0.8 + b * 0.2];
      }
      const texture = 10 * Math.sin(x / 5.3) * Math.sin(y / 7.1);
      const grain = (random() - 0.5) * 10;
      const i = (y * width + x) * 3;
      raw[i] = r + texture + grain;
      raw[i + 1] = g + texture + grain;
      raw[i + 2] = b + texture + grain;
    }
  }
  return raw;
}

/** Flat UI colours, a sidebar, rows of 1–2 px "glyphs", buttons and an embedded picture. */
function screenshotPixels(width, height, seed) {
  const random = lcg(seed);
  const raw = Buffer.alloc(width * height * 4, 255);
  const fill = (x0, y0, w, h, [r, g, b]) => {
    for (let y = Math.max(0, y0); y < Math.min(height, y0 + h); y++) {
      for (let x = Math.max(0, x0); x < Math.min(width, x0 + w); x++) raw.set([r, g, b, 255], (y * width + x) * 4);
    }
  };
  fill(0, 0, width, 56, [236, 236, 240]);
  fill(0, 56, Math.round(width * 0.18), height - 56, [246, 246, 248]);
  for (let y = 90; y < height - 40; y += 26 + Math.floor(random() * 10)) {
    let x = Math.round(width * 0.18) + 40;
    const end = x + random() * width * 0.7;
    while (x < Math.min(end, width - 20)) {
      const glyph = 4 + Math.floor(random() * 8);
      for (let stroke = 0; stroke < 3; stroke++) fill(x + Math.floor(random() * glyph), y + Math.floor(random() * 10), 1 + Math.floor(random() * 2), 2 + Math.floor(random() * 10), [30, 30, 36]);
      x += glyph + (random() < 0.15 ? 8 : 2);
    }
  }
  for (let i = 0; i < 6; i++) fill(Math.round(width * 0.2 + i * 140), 12, 120, 32, [40 + i * 30, 110, 220 - i * 20]);
  const px = Math.round(width * 0.62);
  const py = Math.round(height * 0.3);
  for (let y = 0; y < Math.round(height * 0.35); y++) {
    for (let x = 0; x < Math.round(width * 0.3); x++) raw.set([80 + (x % 170), 120 + (y % 120), 200 - ((x + y) % 150), 255], ((py + y) * width + px + x) * 4);
  }
  return raw;
}

async function makeInputs(dir) {
  const sharp = require('sharp');
  mkdirSync(dir, { recursive: true });
  const photo = path.join(dir, JOBS.photo.file);
  if (!existsSync(photo)) {
    const raw = photoPixels(4000, 3000);
    const options = { raw: { width: 4000, height: 3000, channels: 3 } };
    await sharp(raw, options).jpeg({ quality: 90 }).toFile(photo);
    await sharp(raw, options).webp({ quality: 85 }).toFile(path.join(dir, JOBS.webp.file));
  }
  const screenshot = path.join(dir, JOBS.screenshot.file);
  if (!existsSync(screenshot)) {
    await sharp(screenshotPixels(3024, 1964, 7), { raw: { width: 3024, height: 1964, channels: 4 } }).png().toFile(screenshot);
    await sharp(screenshotPixels(1280, 800, 9), { raw: { width: 1280, height: 800, channels: 4 } }).png().toFile(path.join(dir, JOBS.passthrough.file));
  }
}

// ---------------------------------------------------------------------------------------------------
// Measurement and report.

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** PSNR (RGB) of `output` against sharp's Lanczos-3 of the full-resolution `input` at the output's size. */
async function psnrAgainstSharp(input, output) {
  const sharp = require('sharp');
  const { data: got, info } = await sharp(output).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const want = await sharp(input, { failOn: 'none' })
    .resize(info.width, info.height, { kernel: 'lanczos3', fit: 'fill', fastShrinkOnLoad: false })
    .removeAlpha()
    .raw()
    .toBuffer();
  let squared = 0;
  for (let i = 0; i < got.length; i++) squared += (got[i] - want[i]) ** 2;
  if (squared === 0) return Infinity;
  return 10 * Math.log10((255 * 255) / (squared / got.length));
}

function runChild(pipeline, job, input) {
  const start = performance.now();
  const result = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', pipeline, job, input], { encoding: 'utf8', maxBuffer: 1 << 20 });
  const wall = performance.now() - start;
  if (result.status !== 0) throw new Error(`${pipeline} ${job} child failed: ${result.stderr}`);
  return { ...JSON.parse(result.stdout), wall };
}

function option(name, fallback) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const pad = (text, width) => String(text).padEnd(width);
const ms = (value) => (value < 10 ? value.toFixed(2) : value.toFixed(0));

/** Lines printed so far, per docs block: `--docs` writes them into docs/performance.md. */
const report = { bench: [], 'bench-cli': [] };
let section = 'bench';
function print(line = '') {
  console.log(line);
  report[section].push(line);
}

const MACHINE = `${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GB, Node ${process.version}, ${os.platform()} ${os.arch()}`;

/** The CLI rows (scripts/bench-cli.mjs) and their target checks. */
function cliSection(reps) {
  section = 'bench-cli';
  print(`glimpse bench (CLI) — ${MACHINE}; load average ${os.loadavg()[0].toFixed(1)} at the start`);
  print('');
  const { lines, checks } = benchCli({ root: ROOT, input: path.join(ROOT, 'samples/photo-exif6.jpg'), reps });
  for (const line of lines) print(line);
  section = 'bench';
  return checks;
}

function writeDocs() {
  const page = path.join(ROOT, 'docs/performance.md');
  let text = readFileSync(page, 'utf8');
  for (const [name, lines] of Object.entries(report)) if (lines.length > 0) text = replaceRegion(text, name, lines.join('\n').trim());
  writeFileSync(page, text);
  console.log(`\nwrote ${Object.keys(report).filter((name) => report[name].length > 0).join(' and ')} into docs/performance.md`);
}

async function main() {
  const reps = option('--reps', 7);
  const cliReps = option('--cli-reps', 5);
  if (process.argv.includes('--cli-only')) {
    const checks = cliSection(Math.max(cliReps, 9));
    for (const [text, ok] of checks) console.log(`- ${ok ? 'met' : 'MISSED'}: ${text}`);
    if (process.argv.includes('--docs')) writeDocs();
  if (process.argv.includes('--strict') && checks.some(([, ok]) => !ok)) process.exitCode = 1;
    return;
  }
  const dir = path.join(os.tmpdir(), 'glimpse-bench-inputs-v1');
  await makeInputs(dir);
  const names = Object.keys(PIPELINES);
  const inputs = Object.fromEntries(Object.entries(JOBS).map(([job, { file }]) => [job, new Uint8Array(readFileSync(path.join(dir, file)))]));

  print(`glimpse bench — ${MACHINE}; load average ${os.loadavg()[0].toFixed(1)} at the start`);
  print(`inputs in ${dir}; warm: median of ${reps} alternating in-process runs after one warm-up; RSS: peak of a fresh process doing one job twice\n`);

  // Warm, in-process, alternating.
  const runs = {};
  for (const name of names) runs[name] = await PIPELINES[name]();
  const times = {};
  const outputs = {};
  for (const job of Object.keys(JOBS)) {
    for (const name of names) outputs[`${name}/${job}`] = await runs[name](inputs[job], job); // warm-up
    for (let rep = 0; rep < reps; rep++) {
      const order = names.map((_, i) => names[(i + rep) % names.length]);
      for (const name of order) {
        const start = performance.now();
        outputs[`${name}/${job}`] = await runs[name](inputs[job], job);
        (times[`${name}/${job}`] ??= []).push(performance.now() - start);
      }
    }
  }

  // The share of glimpse's passthrough spent proving the file intact (every PNG chunk CRC): it runs inside
  // `process` on every call, so it is timed alone here, as many times.
  const { checkIntegrity } = await import(pathToFileURL(MEDIA_DIST).href);
  const integrityTimes = [];
  for (let rep = 0; rep <= reps; rep++) {
    const start = performance.now();
    if (checkIntegrity(inputs.passthrough, 'image/png')) throw new Error('the passthrough input fails its integrity check');
    if (rep > 0) integrityTimes.push(performance.now() - start);
  }

  // Fresh processes: peak RSS per pipeline and job; cold start and whole-process time on the photo job.
  const children = {};
  for (const job of Object.keys(JOBS)) {
    const count = job === 'photo' ? cliReps : 1;
    for (let rep = 0; rep < count; rep++) {
      for (const name of names) (children[`${name}/${job}`] ??= []).push(runChild(name, job, path.join(dir, JOBS[job].file)));
    }
  }

  const psnrs = {};
  for (const [job, { label }] of Object.entries(JOBS)) {
    print(`### ${label}`);
    print(`| pipeline | warm median ms | × sharp | peak RSS MB | output bytes | size | PSNR vs sharp Lanczos dB |`);
    print(`|---|---:|---:|---:|---:|---|---:|`);
    const sharpTime = median(times[`sharp/${job}`]);
    for (const name of names) {
      const key = `${name}/${job}`;
      const out = outputs[key];
      const meta = await require('sharp')(out).metadata();
      const psnr = await psnrAgainstSharp(inputs[job], out);
      psnrs[key] = psnr;
      const rss = Math.max(...children[key].map((c) => c.maxRssKb)) / 1024;
      const warm = median(times[key]);
      print(`| ${name} | ${ms(warm)} | ${(warm / sharpTime).toFixed(2)} | ${rss.toFixed(0)} | ${out.byteLength} | ${meta.width}×${meta.height} ${meta.format} | ${psnr === Infinity ? '∞ (same bytes)' : psnr.toFixed(2)} |`);
    }
    if (job === 'passthrough') print(`\nglimpse's time includes its integrity check (every chunk CRC, as libpng checks): ${ms(median(integrityTimes))} ms for these ${inputs.passthrough.byteLength} bytes.`);
    print('');
  }

  print(`### Cold start and whole process: ${JOBS.photo.label} (median of ${cliReps} fresh \`node\` processes each)`);
  print(`| pipeline | node boot ms | load/init ms | first call ms | second call ms | whole process ms | × sharp |`);
  print(`|---|---:|---:|---:|---:|---:|---:|`);
  const sharpWall = median(children['sharp/photo'].map((c) => c.wall));
  for (const name of names) {
    const runs = children[`${name}/photo`];
    const wall = median(runs.map((c) => c.wall));
    print(`| ${name} | ${ms(median(runs.map((c) => c.boot)))} | ${ms(median(runs.map((c) => c.load)))} | ${ms(median(runs.map((c) => c.first)))} | ${ms(median(runs.map((c) => c.warm)))} | ${ms(wall)} | ${(wall / sharpWall).toFixed(2)} |`);
  }
  print('');
  print('### Cold start: first call in a fresh process, per job (load/init + first call, ms)');
  print(`| job | ${names.join(' | ')} |`);
  print(`|---|${names.map(() => '---:').join('|')}|`);
  for (const job of Object.keys(JOBS)) {
    print(`| ${job} | ${names.map((name) => ms(median(children[`${name}/${job}`].map((c) => c.load + c.first)))).join(' | ')} |`);
  }

  // The issue's targets, checked on this run.
  const checks = cliSection(Math.max(cliReps, 9));
  const glimpseWall = median(children['glimpse/photo'].map((c) => c.wall));
  checks.push([`whole-process 12 MP JPEG job within 3× sharp (${(glimpseWall / sharpWall).toFixed(2)}×)`, glimpseWall <= 3 * sharpWall]);
  for (const job of Object.keys(JOBS)) {
    const ours = median(times[`glimpse/${job}`]);
    const rivals = ['wasm-vips', 'photon'].map((name) => median(times[`${name}/${job}`]));
    checks.push([`${job}: faster than wasm-vips and photon (${ms(ours)} vs ${rivals.map(ms).join(', ')} ms)`, rivals.every((t) => ours < t)]);
  }
  checks.push([`passthrough under 1 ms in-process (${ms(median(times['glimpse/passthrough']))} ms)`, median(times['glimpse/passthrough']) < 1]);
  for (const [job, bound] of Object.entries(PSNR_BOUND)) {
    checks.push([`${job}: PSNR ≥ ${bound} dB (${psnrs[`glimpse/${job}`].toFixed(2)})`, psnrs[`glimpse/${job}`] >= bound]);
  }
  print('\n### Targets');
  for (const [text, ok] of checks) print(`- ${ok ? 'met' : 'MISSED'}: ${text}`);
  writeFileSync(path.join(dir, 'last-run.json'), JSON.stringify({ times, children, psnrs }, null, 1));
  if (process.argv.includes('--docs')) writeDocs();
  if (process.argv.includes('--strict') && checks.some(([, ok]) => !ok)) process.exitCode = 1;
}

if (process.argv[2] === '--child') {
  await child(process.argv[3], process.argv[4], process.argv[5]);
} else {
  await main();
}
