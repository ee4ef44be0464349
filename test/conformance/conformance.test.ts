// Runs every file of the public suites (suites.ts) through `process`, in a child process with a time limit
// so a hang or crash is a failure and not a stuck run. Valid files must come out at their own size and at
// half size with pixels matching the reference (PSNR bound per suite); corrupt and hostile files must give
// a typed error or a sound output. Every output passes the strict oracle. A failure not named in
// known-failures.ts fails the suite; a named one that passes now is reported, to delete its line.
// Run with `npm run test:conformance` (fetches the Debian source packages on first use).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { ChildRunner } from '../../scripts/fuzz/child-runner.js';
import type { Verdict } from '../../scripts/fuzz/verdict.js';
import { KNOWN_FAILURES } from './known-failures.js';
import { type Reference, SUITES, type SuiteFile } from './suites.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
// Generous: on a busy 2-core machine a 2048×396 lossless WebP (libwebp's test_webp_js.webp) takes 15–20 s.
const TIME_LIMIT_MS = 60_000;

function tree(pkg: string): string {
  return execFileSync('bash', [join(root, 'scripts/debian-source.sh'), pkg], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
}

async function rgba(
  input: Buffer | Uint8Array,
  width?: number,
  height?: number,
): Promise<{ data: Uint8Array; width: number; height: number }> {
  let image = sharp(input, { failOn: 'none' }).autoOrient();
  if (width !== undefined && height !== undefined)
    image = image.resize(width, height, { fit: 'fill', kernel: 'lanczos3' });
  const { data, info } = await image.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height };
}

/** A binary PPM/PGM (P6/P5, maxval 255), which sharp's libvips build does not read. */
function readNetpbm(bytes: Buffer): { data: Buffer; width: number; height: number; channels: 1 | 3 } {
  const header = /^P([56])\s+(?:#.*\s+)*(\d+)\s+(\d+)\s+(\d+)\s/.exec(bytes.subarray(0, 200).toString('latin1'));
  if (header?.[4] !== '255') throw new Error('conformance: only 8-bit binary PPM/PGM references are read');
  const channels = header[1] === '6' ? 3 : 1;
  const width = Number(header[2]);
  const height = Number(header[3]);
  return {
    data: bytes.subarray(header[0].length, header[0].length + width * height * channels),
    width,
    height,
    channels,
  };
}

async function referencePixels(
  base: string,
  file: SuiteFile,
  reference: Reference,
  width: number,
  height: number,
): Promise<Uint8Array> {
  const fit = { fit: 'fill', kernel: 'lanczos3' } as const;
  if (reference.kind === 'rgba') {
    const raw = readFileSync(join(base, reference.path));
    return new Uint8Array(
      await sharp(raw, { raw: { width: reference.width, height: reference.height, channels: 4 } })
        .resize(width, height, fit)
        .raw()
        .toBuffer(),
    );
  }
  const path = reference.kind === 'file' ? reference.path : file.path;
  const bytes = readFileSync(join(base, path));
  if (/\.p[gp]m$/.test(path)) {
    const { data, ...raw } = readNetpbm(bytes);
    return new Uint8Array(await sharp(data, { raw }).resize(width, height, fit).ensureAlpha().raw().toBuffer());
  }
  return (await rgba(bytes, width, height)).data;
}

/** PSNR in dB of two RGBA8 buffers, colour weighted by alpha so hidden colour under transparency does not count. */
function psnr(a: Uint8Array, b: Uint8Array): number {
  let squared = 0;
  for (let i = 0; i < a.length; i += 4) {
    const alphaA = a[i + 3] ?? 0;
    const alphaB = b[i + 3] ?? 0;
    for (let c = 0; c < 3; c++) squared += (((a[i + c] ?? 0) * alphaA - (b[i + c] ?? 0) * alphaB) / 255) ** 2;
    squared += (alphaA - alphaB) ** 2;
  }
  const mse = squared / a.length;
  return mse === 0 ? Number.POSITIVE_INFINITY : 10 * Math.log10((255 * 255) / mse);
}

function describeVerdict(verdict: Verdict): string {
  if (verdict.outcome === 'finding') return `${verdict.finding}: ${verdict.detail.split('\n')[0]}`;
  if (verdict.outcome === 'refused') return `refused ${verdict.code}`;
  return `${verdict.mediaType} ${verdict.width}x${verdict.height}`;
}

interface FileOutcome {
  path: string;
  /** Short, stable failure reason (the key known-failures.ts uses), or undefined when the file passed. */
  failure?: string;
  detail: string;
  psnr: number[];
  milliseconds: number;
}

async function checkFile(
  runner: ChildRunner,
  base: string,
  file: SuiteFile,
  bounds: { own: number; half: number },
): Promise<FileOutcome> {
  const bytes = new Uint8Array(readFileSync(join(base, file.path)));
  const outcome: FileOutcome = { path: file.path, detail: '', psnr: [], milliseconds: 0 };
  const full = await runner.run({ bytes, options: {}, returnData: true });
  outcome.milliseconds += full.milliseconds;
  outcome.detail = describeVerdict(full);
  if (full.outcome === 'finding') return { ...outcome, failure: full.finding };
  if (file.expect === 'any') return outcome;
  if (full.outcome === 'refused')
    return file.mayRefuse?.includes(full.code) ? outcome : { ...outcome, failure: `refused ${full.code}` };
  if (!file.reference || !full.data) return outcome;
  const ownPsnr = psnr(
    (await rgba(full.data)).data,
    await referencePixels(base, file, file.reference, full.width, full.height),
  );
  outcome.psnr.push(ownPsnr);
  if (ownPsnr < bounds.own)
    return {
      ...outcome,
      failure: 'pixels differ at own size',
      detail: `${outcome.detail}, ${ownPsnr.toFixed(1)} dB < ${bounds.own}`,
    };
  const maxEdge = Math.max(1, Math.ceil(Math.max(full.width, full.height) / 2));
  const half = await runner.run({ bytes, options: { maxEdge }, returnData: true });
  outcome.milliseconds += half.milliseconds;
  if (half.outcome !== 'output' || !half.data)
    return {
      ...outcome,
      failure: `at half size: ${half.outcome === 'finding' ? half.finding : 'refused'}`,
      detail: describeVerdict(half),
    };
  const halfPsnr = psnr(
    (await rgba(half.data)).data,
    await referencePixels(base, file, file.reference, half.width, half.height),
  );
  outcome.psnr.push(halfPsnr);
  if (halfPsnr < bounds.half)
    return {
      ...outcome,
      failure: 'pixels differ at half size',
      detail: `${describeVerdict(half)}, ${halfPsnr.toFixed(1)} dB < ${bounds.half}`,
    };
  return outcome;
}

const summary: Record<string, unknown>[] = [];

describe('public conformance suites', () => {
  const runner = new ChildRunner(TIME_LIMIT_MS);
  afterAll(() => {
    runner.close();
    const directory = join(root, 'node_modules/.cache/glimpse');
    mkdirSync(directory, { recursive: true });
    writeFileSync(join(directory, 'conformance-summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  });

  for (const suite of SUITES) {
    it(suite.name, async () => {
      const started = performance.now();
      const base = tree(suite.package);
      const files = suite.files(base);
      const failures: Record<string, string> = {};
      const details: string[] = [];
      const psnrs: number[] = [];
      for (const file of files) {
        const outcome = await checkFile(runner, base, file, suite.psnr);
        psnrs.push(...outcome.psnr);
        if (outcome.failure) {
          failures[file.path] = outcome.failure;
          details.push(`${file.path}: ${outcome.failure} (${outcome.detail})`);
        }
      }
      summary.push({
        suite: suite.name,
        files: files.length,
        valid: files.filter((f) => f.expect === 'valid').length,
        compared: psnrs.length,
        minPsnr: psnrs.length > 0 ? Math.min(...psnrs) : undefined,
        failures: details,
        seconds: Math.round((performance.now() - started) / 100) / 10,
      });
      expect(files.length).toBeGreaterThan(0);
      const known = KNOWN_FAILURES[suite.name] ?? {};
      const unexpected = Object.fromEntries(
        Object.entries(failures).filter(([path, failure]) => known[path] !== failure),
      );
      expect(unexpected, `failures of ${suite.name} not in known-failures.ts:\n${details.join('\n')}`).toEqual({});
      // A listed failure that no longer happens is good news, not a broken build (the fix may have landed
      // from another branch, whose `npm test` does not run these suites): say so, to delete the line.
      const fixed = Object.keys(known).filter((path) => failures[path] === undefined);
      if (fixed.length > 0)
        console.warn(`${suite.name}: now passing, delete from known-failures.ts: ${fixed.join(', ')}`);
    }, 1_800_000);
  }
});
