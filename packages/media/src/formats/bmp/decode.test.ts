import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { process as fit } from '@glimpse/media';
import { decodeBmp } from './decode.js';
import { MediaError } from '../../errors.js';
import {
  type BmpOptions,
  type Pixels,
  bmp,
  encodeBmp,
  expectedBmpPixels,
  naturalPixels,
  screenshotPixels,
} from '../../../../../test/fixtures/make.js';
import { throwsWith } from '../../../../../test/support/typed-errors.js';

/** Photo pixels with a transparent corner and a half-transparent band, at an odd width so rows need padding. */
function sourcePixels(width = 13, height = 7): Pixels {
  const pixels = naturalPixels(width, height, { channels: 4, seed: 5 });
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 4 + 3;
      pixels.data[at] = x < 3 && y < 3 ? 0 : y === height - 1 ? 128 : 255;
    }
  }
  return pixels;
}

describe('decodeBmp: pixel-exact against our own encoder', () => {
  const cases: [string, BmpOptions][] = [
    ['1-bit palette', { bitsPerPixel: 1 }],
    ['4-bit palette', { bitsPerPixel: 4 }],
    ['8-bit palette', { bitsPerPixel: 8 }],
    ['8-bit palette, OS/2 core header', { bitsPerPixel: 8, coreHeader: true }],
    ['RLE8', { bitsPerPixel: 8, rle: true }],
    ['RLE4', { bitsPerPixel: 4, rle: true }],
    ['16-bit 555', { bitsPerPixel: 16 }],
    ['16-bit 565 bit fields', { bitsPerPixel: 16, bitfields: true }],
    ['24-bit bottom-up', { bitsPerPixel: 24 }],
    ['24-bit top-down', { bitsPerPixel: 24, topDown: true }],
    ['24-bit OS/2 core header', { bitsPerPixel: 24, coreHeader: true }],
    ['32-bit BI_RGB with alpha', { bitsPerPixel: 32 }],
    ['32-bit BI_RGB, alpha bytes all zero (opaque)', { bitsPerPixel: 32, zeroAlpha: true }],
    ['32-bit V5 bit fields with alpha mask, top-down', { bitsPerPixel: 32, bitfields: true, topDown: true }],
  ];

  it.each(cases)('%s', (_, options) => {
    for (const pixels of [sourcePixels(), screenshotPixels(37, 19, { alpha: true })]) {
      const { raster, hasAlpha } = decodeBmp(encodeBmp(pixels, options));
      const expected = expectedBmpPixels(pixels, options);
      expect([raster.width, raster.height]).toEqual([pixels.width, pixels.height]);
      expect(Buffer.from(raster.data).equals(Buffer.from(expected))).toBe(true);
      expect(raster.data.byteOffset).toBe(0);
      expect(raster.data.buffer.byteLength).toBe(pixels.width * pixels.height * 4);
      let anyTransparent = false;
      for (let i = 3; i < expected.length; i += 4) if (expected[i] !== 255) anyTransparent = true;
      expect(hasAlpha).toBe(anyTransparent);
    }
  });

  it('decodes the fixture factory BMPs to their declared size', () => {
    expect(decodeBmp(bmp({ width: 64, height: 48 })).raster.width).toBe(64);
    expect(decodeBmp(bmp({ width: 30, height: 20, bitsPerPixel: 32 })).hasAlpha).toBe(true);
    expect(decodeBmp(bmp({ width: 30, height: 20, bitsPerPixel: 8, rle: true })).hasAlpha).toBe(false);
  });

  it('keeps the 32-bit alpha channel it was given', () => {
    const { raster, hasAlpha } = decodeBmp(encodeBmp(sourcePixels(), { bitsPerPixel: 32 }));
    expect(hasAlpha).toBe(true);
    expect(raster.data[3]).toBe(0); // top-left corner is transparent
    expect(raster.data[(6 * 13 + 5) * 4 + 3]).toBe(128); // bottom row is half transparent
  });
});

describe('decodeBmp: RLE escapes', () => {
  it('leaves pixels skipped by a delta or an early end of bitmap transparent', () => {
    const pixels = naturalPixels(4, 2);
    const bmp = encodeBmp(pixels, { bitsPerPixel: 8, rle: true });
    // Replace the pixel data with: 2 pixels of index 5, delta (1 right, 0 down), end of line, end of bitmap.
    const offset = new DataView(bmp.buffer).getUint32(10, true);
    const stream = [2, 5, 0, 2, 1, 0, 0, 0, 0, 1];
    const file = new Uint8Array(offset + stream.length);
    file.set(bmp.subarray(0, offset));
    file.set(stream, offset);
    const { raster, hasAlpha } = decodeBmp(file);
    expect(hasAlpha).toBe(true);
    const alphaAt = (x: number, y: number) => raster.data[(y * 4 + x) * 4 + 3];
    // Bottom-up: the first stored row is the bottom one (y = 1).
    expect([alphaAt(0, 1), alphaAt(1, 1), alphaAt(2, 1), alphaAt(3, 1)]).toEqual([255, 255, 0, 0]);
    expect([alphaAt(0, 0), alphaAt(3, 0)]).toEqual([0, 0]);
  });
});

describe('decodeBmp: refusals', () => {
  it('keeps no pixel cap of its own (process applies maxInputPixels); missing pixel data is found before allocating', async () => {
    const bmp = encodeBmp(naturalPixels(2, 2));
    new DataView(bmp.buffer).setInt32(18, 50000, true);
    new DataView(bmp.buffer).setInt32(22, 50000, true);
    // Order: the data is found missing before the 10 GB output would be allocated.
    const before = globalThis.process.memoryUsage().arrayBuffers;
    throwsWith(() => decodeBmp(bmp), MediaError, 'E_CORRUPT');
    expect(globalThis.process.memoryUsage().arrayBuffers - before).toBeLessThan(8_000_000);
    // 2.5 gigapixels: refused by the default budget, and only by it: raised, the decoder finds the data missing.
    await expect(fit(bmp)).rejects.toMatchObject({ code: 'E_TOO_MANY_PIXELS' });
    await expect(fit(bmp, { maxInputPixels: 3_000_000_000 })).rejects.toMatchObject({ code: 'E_CORRUPT' });
  });

  it('refuses a 64-bit BMP as E_UNSUPPORTED', () => {
    const bmp = encodeBmp(naturalPixels(2, 2));
    new DataView(bmp.buffer).setUint16(28, 64, true);
    throwsWith(() => decodeBmp(bmp), MediaError, 'E_UNSUPPORTED');
  });

  it('refuses truncated pixel data, bad bit counts and missing palettes as E_CORRUPT', () => {
    const bmp = encodeBmp(naturalPixels(10, 10));
    throwsWith(() => decodeBmp(bmp.subarray(0, bmp.length - 5)), MediaError, 'E_CORRUPT');
    const badDepth = bmp.slice();
    badDepth[28] = 7;
    throwsWith(() => decodeBmp(badDepth), MediaError, 'E_CORRUPT');
    const rle = encodeBmp(naturalPixels(10, 10), { bitsPerPixel: 8, rle: true });
    throwsWith(() => decodeBmp(rle.subarray(0, rle.length - 8)), MediaError, 'E_CORRUPT');
    throwsWith(() => decodeBmp(bmp.subarray(0, 30)), MediaError, 'E_CORRUPT');
  });

  it('names embedded JPEG/PNG BMPs as unsupported', () => {
    const bmp = encodeBmp(naturalPixels(4, 4));
    bmp[30] = 5;
    throwsWith(() => decodeBmp(bmp), MediaError, 'E_UNSUPPORTED');
  });
});

describe('decodeBmp: files written by ImageMagick', () => {
  const directory = new URL('../../../../../test/fixtures/imagemagick/', import.meta.url);
  it.each([
    ['rgb24', 0],
    ['argb32-v5', 0],
    ['os2-core-rgb24', 0],
    ['palette1', 0],
    ['palette4', 0],
    ['rle8', 0],
    // 5- and 6-bit channels: ImageMagick and we scale to 8 bits with different rounding.
    ['rgb565-v5', 1],
    ['rgb555-v5', 1],
  ])('%s matches what ImageMagick reads back', async (name, tolerance) => {
    const { raster, hasAlpha } = decodeBmp(new Uint8Array(readFileSync(new URL(`${name}.bmp`, directory))));
    const expected = new Uint8Array(
      await sharp(readFileSync(new URL(`${name}.expected.png`, directory)))
        .ensureAlpha()
        .raw()
        .toBuffer(),
    );
    expect(raster.data.length).toBe(expected.length);
    let worst = 0;
    for (let i = 0; i < expected.length; i++) worst = Math.max(worst, Math.abs(raster.data[i]! - expected[i]!));
    expect(worst).toBeLessThanOrEqual(tolerance);
    expect(hasAlpha).toBe(name === 'argb32-v5');
  });
});
