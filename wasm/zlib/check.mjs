// Checks wasm/zlib/adler32-simd.c against zlib's own Adler-32 (check-adler32.c, compiled for wasm32 with
// the pinned zlib sources and run under Node's WASI). Run by scripts/check-wasm.sh.
// Usage: node wasm/zlib/check.mjs
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { WASI } from 'node:wasi';

const here = path.dirname(fileURLToPath(import.meta.url));
const zlib = execFileSync(path.join(here, '../../scripts/debian-source.sh'), ['zlib'], { encoding: 'utf8' }).trim();
const dir = mkdtempSync(path.join(os.tmpdir(), 'glimpse-zlib-'));
try {
  const wasm = path.join(dir, 'check.wasm');
  execFileSync(
    process.env.CLANG ?? 'clang',
    ['--target=wasm32-wasi', '-msimd128', '-O2', '-I', zlib, '-o', wasm, path.join(here, 'check-adler32.c')],
    {
      stdio: 'inherit',
    },
  );
  const wasi = new WASI({ version: 'preview1', args: ['check'], returnOnExit: true });
  const instance = await WebAssembly.instantiate(await WebAssembly.compile(readFileSync(wasm)), wasi.getImportObject());
  process.exitCode = wasi.start(instance);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
