// `npm run bench` (second half): glimpse's PDF reader (PDFium in WASM) side by side with pdf.js (pdfjs-dist,
// JavaScript, drawing on @napi-rs/canvas) and poppler (pdftoppm/pdftotext, native, Debian's poppler-utils),
// in one process run. Jobs (issue 16): page 1 of a text PDF and of an image-heavy PDF rendered at 2000 px,
// and the text of a 100-page PDF. Inputs are made here with pdf-lib (test/fixtures/pdf-documents.ts).
// Timings: median of N alternating warm runs after one warm-up, each a whole call (open the bytes, render
// or extract, encode the PNG); poppler's include its process start, as a CLI user pays it. Quality: PSNR
// of each render against pdftoppm at the same size; text: words and order against pdftotext.
//
// Usage: node scripts/bench-pdf.mjs [--reps N] [--strict]   (--strict: exit 1 when a target is missed)
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(ROOT, 'package.json'));
const EDGE = 2000;
const sharp = require('sharp');

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const ms = (value) => (value < 10 ? value.toFixed(2) : value.toFixed(0));
const option = (name, fallback) =>
  process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : fallback;

/** The test fixtures, bundled on the fly (they are TypeScript). */
async function fixtures() {
  const { build } = require('esbuild');
  const out = path.join(ROOT, 'node_modules/.cache/glimpse/bench-pdf-fixtures.mjs');
  await build({
    entryPoints: [path.join(ROOT, 'test/fixtures/pdf-documents.ts')],
    outfile: out,
    bundle: true,
    format: 'esm',
    platform: 'node',
    packages: 'external',
    logLevel: 'warning',
  });
  return import(pathToFileURL(out).href);
}

// ---------------------------------------------------------------------------------------------------
// Readers. Each has render(bytes) → {png, width, height} for page 1 at EDGE px, and text(bytes) → string[].

async function glimpse() {
  const { renderPdfPage, pdfText } = await import(pathToFileURL(path.join(ROOT, 'packages/media/dist/node.js')).href);
  return {
    render: async (bytes) => {
      const result = await renderPdfPage(bytes, 1, { maxEdge: EDGE, maxBytes: 50_000_000 });
      return { png: result.data, width: result.width, height: result.height, type: result.mediaType };
    },
    text: async (bytes) => (await pdfText(bytes)).pages.map((page) => page.text),
  };
}

async function pdfjs() {
  const pdf = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const { createCanvas } = require('@napi-rs/canvas');
  const open = (bytes) => pdf.getDocument({ data: bytes.slice(), verbosity: 0, isEvalSupported: false }).promise;
  return {
    render: async (bytes) => {
      const document = await open(bytes);
      const page = await document.getPage(1);
      const base = page.getViewport({ scale: 1 });
      const viewport = page.getViewport({ scale: EDGE / Math.max(base.width, base.height) });
      const width = Math.round(viewport.width);
      const height = Math.round(viewport.height);
      const canvas = createCanvas(width, height);
      await page.render({ canvasContext: canvas.getContext('2d'), canvas, viewport, background: 'white' }).promise;
      const png = await canvas.encode('png');
      await document.destroy();
      return { png: new Uint8Array(png), width, height, type: 'image/png' };
    },
    text: async (bytes) => {
      const document = await open(bytes);
      const pages = [];
      for (let i = 1; i <= document.numPages; i++) {
        const content = await (await document.getPage(i)).getTextContent();
        pages.push(content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : ' ') : '')).join(''));
      }
      await document.destroy();
      return pages;
    },
  };
}

function poppler(folder) {
  const file = path.join(folder, 'input.pdf');
  return {
    render: async (bytes, size) => {
      writeFileSync(file, bytes);
      execFileSync('pdftoppm', [
        '-png',
        '-singlefile',
        '-cropbox',
        '-f',
        '1',
        '-l',
        '1',
        '-scale-to-x',
        String(size.width),
        '-scale-to-y',
        String(size.height),
        file,
        path.join(folder, 'page'),
      ]);
      return { png: readFileSync(path.join(folder, 'page.png')), ...size, type: 'image/png' };
    },
    text: async (bytes) => {
      writeFileSync(file, bytes);
      return execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8', maxBuffer: 1 << 26 })
        .split('\f')
        .slice(0, -1);
    },
  };
}

// ---------------------------------------------------------------------------------------------------

/** RGB pixels at width×height; `blur` is a Gaussian's sigma in pixels (the oracle test's text check uses 2). */
async function rgb(png, width, height, blur = 0) {
  const pixels = sharp(png).flatten({ background: '#ffffff' }).removeAlpha().resize(width, height, { fit: 'fill' });
  return (blur > 0 ? pixels.blur(blur) : pixels).raw().toBuffer();
}

function psnr(a, b) {
  let squared = 0;
  for (let i = 0; i < a.length; i++) squared += (a[i] - b[i]) ** 2;
  return squared === 0 ? Infinity : 10 * Math.log10((255 * 255 * a.length) / squared);
}

const words = (pages) => pages.join(' ').split(/\s+/).filter(Boolean);

/**
 * Every .wasm the media package ships, raw and gzipped: its own codecs in wasm/ and its dependencies' in
 * dist/wasm/ (`<name>-<hash>.wasm`), the files that the browser, Deno and workerd bundles refer to.
 */
function wasmSizes() {
  const directories = ['packages/media/wasm', 'packages/media/dist/wasm'].map((folder) => path.join(ROOT, folder));
  return directories
    .flatMap((directory) => readdirSync(directory).map((file) => path.join(directory, file)))
    .filter((file) => file.endsWith('.wasm'))
    .map((file) => {
      const bytes = readFileSync(file);
      return {
        name: path.basename(file).replace(/(-[0-9a-f]{8})?\.wasm$/, ''),
        raw: bytes.length,
        gzip: gzipSync(bytes, { level: 9 }).length,
      };
    })
    .sort((a, b) => b.raw - a.raw);
}

async function main() {
  const reps = option('--reps', 5);
  const folder = path.join(os.tmpdir(), 'glimpse-bench-pdf');
  mkdirSync(folder, { recursive: true });
  const make = await fixtures();
  const inputs = {
    text: await make.textPdf({ pages: 1, embedFont: true, wholeWidths: true }),
    image: await make.scanPdf({ width: 2550, height: 3300 }),
    hundred: await make.textPdf({ pages: 100 }),
  };
  const readers = { glimpse: await glimpse(), 'pdf.js': await pdfjs(), poppler: poppler(folder) };
  const names = Object.keys(readers);
  console.log(
    `glimpse PDF bench — ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores, Node ${process.version}; load average ${os.loadavg()[0].toFixed(1)}`,
  );
  console.log(
    `inputs: text page (embedded DejaVu, whole-number widths, ${inputs.text.length} B), image page (300 dpi JPEG scan, ${inputs.image.length} B), 100 text pages (${inputs.hundred.length} B); median of ${reps} alternating warm runs\n`,
  );

  const times = {};
  const renders = {};
  const texts = {};
  for (const job of ['text', 'image']) {
    const { width, height } = await readers.glimpse.render(inputs[job]);
    const size = { width, height };
    for (const name of names) renders[`${name}/${job}`] = await readers[name].render(inputs[job], size); // warm-up
    for (let rep = 0; rep < reps; rep++) {
      for (const name of names.map((_, i) => names[(i + rep) % names.length])) {
        const start = performance.now();
        renders[`${name}/${job}`] = await readers[name].render(inputs[job], size);
        (times[`${name}/${job}`] ??= []).push(performance.now() - start);
      }
    }
  }
  for (const name of names) texts[name] = await readers[name].text(inputs.hundred);
  for (let rep = 0; rep < reps; rep++) {
    for (const name of names.map((_, i) => names[(i + rep) % names.length])) {
      const start = performance.now();
      texts[name] = await readers[name].text(inputs.hundred);
      (times[`${name}/hundred`] ??= []).push(performance.now() - start);
    }
  }

  const checks = [];
  for (const [job, label] of [
    ['text', 'page 1 of a text PDF'],
    ['image', 'page 1 of an image-heavy PDF (a 300 dpi scan)'],
  ]) {
    console.log(`### Render ${label} at ${EDGE} px`);
    console.log('| reader | warm median ms | output | PSNR vs pdftoppm dB | through a 2 px blur dB |');
    console.log('|---|---:|---|---:|---:|');
    const reference = renders[`poppler/${job}`];
    const score = async (out, blur) =>
      psnr(
        await rgb(out.png, reference.width, reference.height, blur),
        await rgb(reference.png, reference.width, reference.height, blur),
      );
    for (const name of names) {
      const out = renders[`${name}/${job}`];
      const [sharpScore, blurredScore] = [await score(out, 0), await score(out, 2)];
      console.log(
        `| ${name} | ${ms(median(times[`${name}/${job}`]))} | ${out.width}×${out.height} ${out.type.slice(6)} ${out.png.length} B | ${name === 'poppler' ? '(reference)' : sharpScore.toFixed(2)} | ${name === 'poppler' ? '' : blurredScore.toFixed(2)} |`,
      );
      if (name !== 'glimpse') continue;
      // Running text: no engine reaches 30 dB against pdftoppm at full size (glyphs land a fraction of a pixel
      // apart); test/pdf-oracle.test.ts measures why and compares through a 2 px blur.
      if (job === 'text')
        checks.push([
          `text page: PSNR vs pdftoppm ${sharpScore.toFixed(2)} dB, through a 2 px blur ${blurredScore.toFixed(2)} dB (target ≥ 30 through the blur)`,
          blurredScore >= 30,
        ]);
      else checks.push([`${job} page: PSNR vs pdftoppm ${sharpScore.toFixed(2)} dB (target ≥ 30)`, sharpScore >= 30]);
    }
    const ours = median(times[`glimpse/${job}`]);
    const theirs = median(times[`pdf.js/${job}`]);
    checks.push([`${job} page: faster than pdf.js (${ms(ours)} vs ${ms(theirs)} ms)`, ours < theirs]);
    console.log('');
  }

  console.log('### Text of a 100-page PDF');
  console.log('| reader | warm median ms | characters | same words in the same order as pdftotext |');
  console.log('|---|---:|---:|---|');
  const reference = words(texts.poppler);
  for (const name of names) {
    const same = JSON.stringify(words(texts[name])) === JSON.stringify(reference);
    console.log(
      `| ${name} | ${ms(median(times[`${name}/hundred`]))} | ${texts[name].join('').length} | ${name === 'poppler' ? '(reference)' : same ? 'yes' : 'no'} |`,
    );
    if (name === 'glimpse') checks.push([`100-page text: same words in the same order as pdftotext`, same]);
  }

  console.log(
    "\n### WASM modules shipped (packages/media/wasm and dist/wasm: what the browser, Deno and workerd bundles load; Node reads the same bytes, its dependencies' from node_modules)",
  );
  console.log('| module | raw KB | gzip KB |');
  console.log('|---|---:|---:|');
  const sizes = wasmSizes();
  for (const { name, raw, gzip } of sizes)
    console.log(`| ${name} | ${(raw / 1024).toFixed(1)} | ${(gzip / 1024).toFixed(1)} |`);
  const total = sizes.reduce((sum, size) => ({ raw: sum.raw + size.raw, gzip: sum.gzip + size.gzip }), {
    raw: 0,
    gzip: 0,
  });
  console.log(`| all | ${(total.raw / 1024).toFixed(1)} | ${(total.gzip / 1024).toFixed(1)} |`);
  const pdfjsBuild = path.join(path.dirname(require.resolve('pdfjs-dist/package.json')), 'legacy/build');
  const pdfjsSize = ['pdf.mjs', 'pdf.worker.mjs'].reduce(
    (sum, file) => sum + statSync(path.join(pdfjsBuild, file)).size,
    0,
  );
  console.log(
    `(pdf.js for comparison: pdf.mjs + pdf.worker.mjs ${(pdfjsSize / 1024).toFixed(0)} KB of JS, plus a canvas outside the browser)`,
  );

  console.log('\n### Targets');
  for (const [text, ok] of checks) console.log(`- ${ok ? 'met' : 'MISSED'}: ${text}`);
  if (process.argv.includes('--strict') && checks.some(([, ok]) => !ok)) process.exitCode = 1;
}

await main();
