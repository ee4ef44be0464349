import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import encodeWithJsquash, { init as initJsquash } from '@jsquash/webp/encode.js';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeWasm } from '../../../../../test/support/node-wasm.js';
import { psnr } from '../../../../../test/support/psnr.js';
import { rasterSource } from '../../raster/raster-rows.js';
import type { Raster } from '../../types.js';
import { encodeWebpRows } from './encoder-kernel.js';

const require = createRequire(import.meta.url);

useNodeWasm();

beforeAll(async () => {
  const simd = await WebAssembly.compile(await readFile(require.resolve('@jsquash/webp/codec/enc/webp_enc_simd.wasm')));
  await (initJsquash as unknown as (module: WebAssembly.Module, overrides: object) => Promise<unknown>)(simd, {
    print: () => {},
    printErr: () => {},
  });
});

/** Deterministic pictures that exercise every coding path: grain, gradients, hard edges, soft and hard alpha. */
function picture(kind: 'grain' | 'gradient' | 'edges with alpha', width: number, height: number): Raster {
  const data = new Uint8Array(width * height * 4);
  let seed = 11;
  const random = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) >>> 24;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      for (let c = 0; c < 3; c++) {
        if (kind === 'grain') data[i + c] = ((x * (c + 1) + y) & 127) + (random() >> 5);
        else if (kind === 'gradient') data[i + c] = Math.round(((x + y * (c + 1)) / (width + height * 3)) * 255);
        else data[i + c] = ((x >> 3) + (y >> 3)) & 1 ? 230 - 40 * c : 20 + 30 * c;
      }
      data[i + 3] = kind === 'edges with alpha' && x < width / 3 ? (x * 9) & 255 : 255;
    }
  }
  return { data, width, height };
}

const METHOD = 1;

describe('own WebP encoder', () => {
  const cases = [
    ['grain', 641, 479],
    ['gradient', 300, 201],
    ['edges with alpha', 257, 130],
    ['grain', 1, 1],
  ] as const;

  it('writes the same bytes as libwebp through jSquash, the encoder it replaced (same options)', async () => {
    for (const [kind, width, height] of cases) {
      const raster = picture(kind, width, height);
      for (const quality of [10, 50, 85, 100]) {
        const own = await encodeWebpRows(rasterSource(raster, true), { quality, lossless: false, method: METHOD });
        const reference = await encodeWithJsquash(
          { data: Uint8ClampedArray.from(raster.data), width, height, colorSpace: 'srgb' },
          { quality, method: METHOD, alpha_quality: 100, exact: 0 },
        );
        expect(Buffer.compare(Buffer.from(own), Buffer.from(reference)), `${kind} ${width}×${height} q${quality}`).toBe(
          0,
        );
      }
    }
  });

  it('writes files that webpinfo and dwebp read without complaint, close to the input, alpha exact', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'webp-encoder-'));
    for (const [kind, width, height] of cases) {
      const raster = picture(kind, width, height);
      const file = join(dir, `${kind}-${width}x${height}.webp`);
      writeFileSync(
        file,
        await encodeWebpRows(rasterSource(raster, true), { quality: 85, lossless: false, method: 1 }),
      );
      expect(execFileSync('webpinfo', ['-quiet', file]).toString()).toBe('');
      execFileSync('dwebp', ['-quiet', file, '-pam', '-o', join(dir, 'out.pam')]);
      const decoded = await sharp(file).ensureAlpha().raw().toBuffer();
      // Colour where the pixel is opaque (libwebp may change it under transparency: exact 0).
      const opaque = (pixels: Uint8Array) => pixels.filter((_, i) => raster.data[i - (i % 4) + 3] === 255);
      // PSNR over a picture; a single pixel's colour within what q85 keeps of it.
      const [ours, theirs] = [opaque(raster.data), opaque(decoded)];
      if (width * height > 1) expect(psnr(ours, theirs), `${kind}`).toBeGreaterThan(26);
      else expect(Math.max(...ours.map((value, i) => Math.abs(value - (theirs[i] ?? 0)))), kind).toBeLessThan(24);
      const alpha = (pixels: Uint8Array) => pixels.filter((_, i) => i % 4 === 3);
      expect(Buffer.compare(Buffer.from(alpha(decoded)), Buffer.from(alpha(raster.data))), `${kind} alpha`).toBe(0);
    }
  });

  it('keeps lossless output exact', async () => {
    // No pixel fully transparent: libwebp may rewrite the colour under those (exact: 0, as for lossy).
    const raster = picture('edges with alpha', 257, 130);
    for (let i = 3; i < raster.data.length; i += 4) raster.data[i] = Math.max(1, raster.data[i] ?? 0);
    const webp = await encodeWebpRows(rasterSource(raster, true), { quality: 100, lossless: true, method: 1 });
    const decoded = await sharp(webp).ensureAlpha().raw().toBuffer();
    expect(Buffer.compare(decoded, Buffer.from(raster.data))).toBe(0);
  });

  it('refuses a side longer than WebP allows with E_TOO_LARGE, before it reads a row', async () => {
    const source = {
      width: 16384,
      height: 2,
      mayHaveAlpha: false,
      rows: () => {
        throw new Error('no row should be read');
      },
    };
    await expect(encodeWebpRows(source, { quality: 80, lossless: false, method: 1 })).rejects.toMatchObject({
      code: 'E_TOO_LARGE',
    });
  });
});
