// Checks glimpse's zlib changes against zlib's own code, each compiled for wasm32 with the pinned zlib
// sources and run under Node's WASI. Run by scripts/check-wasm.sh.
// - wasm/zlib/adler32-simd.c against zlib's Adler-32 (check-adler32.c);
// - zlib's inflate with wasm/zlib/inffast-wide.c (inflate-wide.patch) against the stock inflate:
//   check-inflate.c is built both ways and must print the same line for every case.
// Usage: node wasm/zlib/check.mjs
import { execFileSync } from 'node:child_process';
import { closeSync, cpSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { WASI } from 'node:wasi';

const here = path.dirname(fileURLToPath(import.meta.url));
const zlib = execFileSync(path.join(here, '../../scripts/debian-source.sh'), ['zlib'], { encoding: 'utf8' }).trim();
const dir = mkdtempSync(path.join(os.tmpdir(), 'glimpse-zlib-'));
const clang = process.env.CLANG ?? 'clang';
// png.wasm's flags that change what the code does (wasm/build-lib.sh): SIMD128, and memcpy as memory.copy.
const base = ['--target=wasm32-wasi', '-msimd128', '-mbulk-memory', '-O2'];
const inflateSources = (tree) =>
  ['inflate', 'inffast', 'inftrees', 'deflate', 'trees', 'zutil', 'adler32', 'crc32'].map((f) =>
    path.join(tree, `${f}.c`),
  );

/** Runs a WASI program: its standard output and exit code. */
async function run(wasm) {
  const out = path.join(dir, `${path.basename(wasm)}.txt`);
  const stdout = openSync(out, 'w');
  const wasi = new WASI({ version: 'preview1', args: ['check'], returnOnExit: true, stdout });
  const instance = await WebAssembly.instantiate(await WebAssembly.compile(readFileSync(wasm)), wasi.getImportObject());
  const code = wasi.start(instance);
  closeSync(stdout);
  return { code, text: readFileSync(out, 'utf8') };
}

let failed = false;
try {
  const adler = path.join(dir, 'adler32.wasm');
  execFileSync(clang, [...base, '-I', zlib, '-o', adler, path.join(here, 'check-adler32.c')], { stdio: 'inherit' });
  const adlerRun = await run(adler);
  process.stdout.write(adlerRun.text);
  failed ||= adlerRun.code !== 0;

  const patched = path.join(dir, 'zlib');
  cpSync(zlib, patched, { recursive: true });
  execFileSync('patch', ['--quiet', `--directory=${patched}`, '-p1', '-i', path.join(here, 'inflate-wide.patch')]);
  const stock = path.join(dir, 'inflate-stock.wasm');
  const wide = path.join(dir, 'inflate-wide.wasm');
  const check = path.join(here, 'check-inflate.c');
  execFileSync(clang, [...base, '-I', zlib, '-o', stock, check, ...inflateSources(zlib)], { stdio: 'inherit' });
  execFileSync(
    clang,
    [
      ...base,
      '-DINFLATE_FAST_WIDE',
      '-I',
      patched,
      '-I',
      here,
      '-o',
      wide,
      check,
      path.join(here, 'inffast-wide.c'),
      ...inflateSources(patched),
    ],
    { stdio: 'inherit' },
  );
  const [stockRun, wideRun] = [await run(stock), await run(wide)];
  const stockLines = stockRun.text.split('\n');
  const wideLines = wideRun.text.split('\n');
  const differing = stockLines.flatMap((line, i) => (line === wideLines[i] ? [] : [i]));
  for (const i of differing.slice(0, 5)) console.log(`stock: ${stockLines[i]}\nwide:  ${wideLines[i]}`);
  const summary = wideLines.filter((line) => line !== '' && !line.startsWith('case '));
  console.log(`${summary.join('\n')} (with inffast-wide.c)`);
  const runs = stockLines.filter((line) => line.startsWith('case ')).length;
  console.log(`wasm/zlib: ${differing.length} of ${runs} inflate runs differ from zlib's own inflate`);
  failed ||=
    stockRun.code !== 0 || wideRun.code !== 0 || differing.length > 0 || stockLines.length !== wideLines.length;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
