// Checks libpng's Neon filters as png.wasm builds them against the PNG specification (check-filters.c,
// compiled for wasm32 over the pinned libpng sources with wasm/png/neon-halves.patch, run under Node's WASI).
// Run by scripts/check-wasm.sh.
// Usage: node wasm/png/check.mjs
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { WASI } from 'node:wasi';

const here = path.dirname(fileURLToPath(import.meta.url));
const source = (name) =>
  execFileSync(path.join(here, '../../scripts/debian-source.sh'), [name], { encoding: 'utf8' }).trim();
const dir = mkdtempSync(path.join(os.tmpdir(), 'glimpse-png-'));
try {
  const png = path.join(dir, 'libpng');
  cpSync(source('libpng1.6'), png, { recursive: true });
  execFileSync('patch', ['--quiet', `--directory=${png}`, '-p1', '-i', path.join(here, 'neon-halves.patch')]);
  // The configuration png.wasm is built with (wasm/png/build.sh).
  const config = readFileSync(path.join(png, 'scripts/pnglibconf.h.prebuilt'), 'utf8').replace(
    /^#define (PNG_(SETJMP|STDIO|CONSOLE_IO|SIMPLIFIED_[A-Z_]+)_SUPPORTED)$/gm,
    '/* glimpse: no $1 */',
  );
  execFileSync('sh', ['-c', 'cat > "$1"', 'sh', path.join(dir, 'pnglibconf.h')], { input: config });
  const wasm = path.join(dir, 'check.wasm');
  execFileSync(
    process.env.CLANG ?? 'clang',
    [
      '--target=wasm32-wasi',
      '-msimd128',
      '-O2',
      '-DPNG_ARM_NEON_OPT=2',
      '-DPNG_ARM_NEON_IMPLEMENTATION=1',
      '-I',
      dir,
      '-I',
      png,
      '-I',
      source('zlib'),
      '-I',
      path.join(here, '../neon'),
      '-o',
      wasm,
      path.join(here, 'check-filters.c'),
      path.join(png, 'arm/filter_neon_intrinsics.c'),
    ],
    { stdio: 'inherit' },
  );
  const wasi = new WASI({ version: 'preview1', args: ['check'], returnOnExit: true });
  const instance = await WebAssembly.instantiate(await WebAssembly.compile(readFileSync(wasm)), wasi.getImportObject());
  process.exitCode = wasi.start(instance);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
