import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { useNodeWasm } from '../../../../../test/support/node-wasm.js';
import { decodeWebpRows, decodeWebpStill } from './decoder-kernel.js';

useNodeWasm();

const width = 600;
const height = 400;

/** Smooth ramps with a soft alpha gradient on the right half. */
function rgba(): Buffer {
  const raw = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      raw.set(
        [
          Math.round((x / width) * 255),
          Math.round((y / height) * 255),
          Math.round(128 + 100 * Math.sin(x / 30)),
          x < width / 2 ? 255 : Math.round(255 - ((x - width / 2) / (width / 2)) * 255),
        ],
        (y * width + x) * 4,
      );
    }
  }
  return raw;
}

function meanAbsoluteError(a: Uint8Array, b: Uint8Array): number {
  let total = 0;
  for (let i = 0; i < a.length; i++) total += Math.abs((a[i] ?? 0) - (b[i] ?? 0));
  return total / a.length;
}

/** dwebp's (libwebp 1.2.4, as Debian ships it) RGBA pixels of `webp`, rescaled to `size` when given. */
function dwebpPixels(webp: Uint8Array, size?: { width: number; height: number }): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'webp-oracle-'));
  writeFileSync(join(dir, 'in.webp'), webp);
  const scale = size ? ['-scale', String(size.width), String(size.height)] : [];
  execFileSync('dwebp', ['-quiet', ...scale, '-pam', join(dir, 'in.webp'), '-o', join(dir, 'out.pam')]);
  const pam = readFileSync(join(dir, 'out.pam'));
  return pam.subarray(pam.indexOf('ENDHDR\n') + 7);
}

describe('own WebP decoder', () => {
  const raw = rgba();
  const input = { raw: { width, height, channels: 4 as const } };

  it('decodes every row exactly as dwebp does, whole and rescaled, through its window of output rows', async () => {
    // Odd and tall sizes, so batches end at every phase of the window (wasm/webp/output-window.patch).
    const tall = await sharp({
      create: {
        width: 301,
        height: 1999,
        channels: 4,
        background: '#80808080',
        noise: { type: 'gaussian', mean: 128, sigma: 50 },
      },
    })
      .raw()
      .toBuffer();
    const tallInput = { raw: { width: 301, height: 1999, channels: 4 as const } };
    const files: [string, Buffer][] = [
      ['lossy', await sharp(raw, input).removeAlpha().webp({ quality: 80 }).toBuffer()],
      ['lossy with alpha', await sharp(raw, input).webp({ quality: 80 }).toBuffer()],
      ['lossless with alpha', await sharp(raw, input).webp({ lossless: true }).toBuffer()],
      ['tall lossy with alpha', await sharp(tall, tallInput).webp({ quality: 60 }).toBuffer()],
      ['tall lossless', await sharp(tall, tallInput).webp({ lossless: true }).toBuffer()],
    ];
    for (const [name, webp] of files) {
      const { width: w, height: h } = await sharp(webp).metadata();
      for (const size of [
        undefined,
        { width: Math.ceil(w / 3), height: Math.ceil(h / 3) },
        { width: w * 2, height: h * 2 + 1 },
      ]) {
        const { raster } = await decodeWebpStill(new Uint8Array(webp), size);
        const expected = dwebpPixels(new Uint8Array(webp), size);
        expect(
          Buffer.compare(Buffer.from(raster.data), expected),
          `${name} at ${size ? `${size.width}×${size.height}` : 'its size'}`,
        ).toBe(0);
      }
    }
  });

  it('decodes lossless WebP exactly, alpha included', async () => {
    const webp = new Uint8Array(await sharp(raw, input).webp({ lossless: true }).toBuffer());
    const { raster, alphaChannel } = await decodeWebpStill(webp);
    expect([raster.width, raster.height, alphaChannel]).toEqual([width, height, true]);
    expect(meanAbsoluteError(raster.data, raw)).toBe(0);
  });

  it('rescales lossy WebP while decoding, close to a Lanczos downscale of the same pixels', async () => {
    const webp = new Uint8Array(await sharp(raw, input).removeAlpha().webp({ quality: 95 }).toBuffer());
    const { raster, alphaChannel } = await decodeWebpStill(webp, { width: 200, height: 133 });
    expect([raster.width, raster.height, alphaChannel]).toEqual([200, 133, false]);
    const reference = await sharp(webp)
      .resize(200, 133, { kernel: 'lanczos3', fit: 'fill', fastShrinkOnLoad: false })
      .ensureAlpha()
      .raw()
      .toBuffer();
    expect(meanAbsoluteError(raster.data, new Uint8Array(reference))).toBeLessThan(2);
  });

  it('keeps transparent areas transparent when rescaling with alpha', async () => {
    const webp = new Uint8Array(await sharp(raw, input).webp({ lossless: true }).toBuffer());
    const { raster } = await decodeWebpStill(webp, { width: 150, height: 100 });
    expect(raster.data[3]).toBe(255);
    expect(raster.data[149 * 4 + 3]).toBeLessThan(12);
  });

  it('decodes exactly a lossless WebP taller than its row window, whose copies reach the farthest back', async () => {
    // Noise rows that repeat after 1,048,000 pixels: the encoder copies them from the longest distance
    // VP8L allows (2^20 - 120), and 1400 rows of 1000 are more than the decoder's window holds
    // (wasm/webp/vp8l-window.patch), so it slides and must still reach back that far.
    const [wide, tall, period] = [1000, 1400, 1048];
    const pixels = Buffer.alloc(wide * tall * 3);
    let seed = 7;
    for (let i = 0; i < wide * period * 3; i++)
      pixels[i] = (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) >>> 24;
    pixels.copy(pixels, wide * period * 3, 0, (tall - period) * wide * 3);
    const webp = await sharp(pixels, { raw: { width: wide, height: tall, channels: 3 } })
      .webp({ lossless: true })
      .toBuffer();
    const { raster } = await decodeWebpStill(new Uint8Array(webp));
    const expected = await sharp(pixels, { raw: { width: wide, height: tall, channels: 3 } })
      .ensureAlpha()
      .raw()
      .toBuffer();
    expect(Buffer.compare(Buffer.from(raster.data), expected)).toBe(0);
  });

  it('finds the image data after metadata longer than the chunk it copies in first (a 300 KB ICC profile)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'webp-icc-'));
    writeFileSync(join(dir, 'plain.webp'), await sharp(raw, input).webp({ lossless: true }).toBuffer());
    writeFileSync(join(dir, 'big.icc'), Buffer.alloc(300_000, 7));
    execFileSync(
      'webpmux',
      ['-set', 'icc', join(dir, 'big.icc'), join(dir, 'plain.webp'), '-o', join(dir, 'icc.webp')],
      {
        stdio: 'ignore',
      },
    );
    const webp = new Uint8Array(readFileSync(join(dir, 'icc.webp')));
    expect(webp.byteLength).toBeGreaterThan(300_000);
    const { raster } = await decodeWebpStill(webp);
    expect(Buffer.compare(Buffer.from(raster.data), raw)).toBe(0);
  });

  it('turns damaged data into E_CORRUPT', async () => {
    const webp = new Uint8Array(await sharp(raw, input).webp({ quality: 80 }).toBuffer());
    await expect(decodeWebpStill(webp.subarray(0, 100))).rejects.toMatchObject({ code: 'E_CORRUPT' });
    await expect(decodeWebpStill(new Uint8Array(64))).rejects.toMatchObject({ code: 'E_CORRUPT' });
    // Cut in the middle of the lossless data, which the decoder reads a chunk at a time.
    const lossless = new Uint8Array(await sharp(raw, input).webp({ lossless: true }).toBuffer());
    await expect(decodeWebpStill(lossless.subarray(0, lossless.byteLength >> 1))).rejects.toMatchObject({
      code: 'E_CORRUPT',
    });
  });

  it('hands out rows while it decodes, a chunk of the file at a time', async () => {
    // Grainy enough that the file spans several 64 KB chunks.
    const noisy = await sharp({
      create: {
        width: 1200,
        height: 900,
        channels: 3,
        background: '#808080',
        noise: { type: 'gaussian', mean: 128, sigma: 60 },
      },
    })
      .webp({ quality: 90 })
      .toBuffer();
    const bands: number[] = [];
    let width = 0;
    await decodeWebpRows(new Uint8Array(noisy), undefined, {
      start: (layout) => {
        width = layout.width;
      },
      write: (pixels, rows) => {
        expect(pixels.byteLength).toBe(rows * width * 4);
        bands.push(rows);
      },
    });
    expect(bands.length).toBeGreaterThan(2);
    expect(bands.reduce((sum, rows) => sum + rows, 0)).toBe(900);
  });
});
