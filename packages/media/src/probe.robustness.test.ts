// Truncation and bit-flip fuzzing: whatever the damage, the header side answers with a result or a
// MediaError, quickly, and prints nothing.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import sharp from 'sharp';
import { probe } from './probe.js';
import { detect } from './detect.js';
import { decodeBmp } from './formats/bmp/decode.js';
import { firstWebpFrame } from './formats/webp/frames.js';
import { MediaError } from './errors.js';
import * as make from '../../../test/fixtures/make.js';

const fixtures: [string, () => Promise<Uint8Array> | Uint8Array][] = [
  ['jpeg', () => make.photoJpeg({ width: 48, height: 32, orientation: 6 })],
  ['jpeg progressive cmyk', () => make.photoJpeg({ width: 48, height: 32, progressive: true, cmyk: true })],
  ['png', () => make.screenshotPng({ width: 40, height: 24, alpha: true, orientation: 3 })],
  ['png palette interlaced', () => make.screenshotPng({ width: 40, height: 24, palette: true, interlaced: true })],
  ['webp', () => make.webp({ width: 40, height: 24, orientation: 6 })],
  ['webp animated', () => make.webp({ width: 40, height: 24, animated: true, alpha: true })],
  ['webp lossless', () => make.webp({ width: 40, height: 24, lossless: true, alpha: true })],
  ['gif animated', () => make.gif({ width: 40, height: 24, animated: true, transparent: true })],
  ['bmp 24', () => make.encodeBmp(make.naturalPixels(9, 5))],
  ['bmp rle8', () => make.encodeBmp(make.naturalPixels(9, 5), { bitsPerPixel: 8, rle: true })],
  ['bmp rle4', () => make.encodeBmp(make.naturalPixels(9, 5), { bitsPerPixel: 4, rle: true })],
  ['bmp 1-bit core header', () => make.encodeBmp(make.naturalPixels(9, 5), { bitsPerPixel: 1, coreHeader: true })],
  ['bmp 16 bitfields', () => make.encodeBmp(make.naturalPixels(9, 5), { bitsPerPixel: 16, bitfields: true })],
  ['bmp 32 v5', () => make.encodeBmp(make.naturalPixels(9, 5, { channels: 4 }), { bitsPerPixel: 32, bitfields: true })],
  ['svg', () => make.svg({ viewBox: '0 0 10 10' })],
  ['pdf', () => make.pdf({ pages: 2 })],
  ['tiff-ish', () => make.exifTiff(6, { littleEndian: true })],
  [
    'avif',
    async () =>
      new Uint8Array(
        await sharp({ create: { width: 24, height: 16, channels: 3, background: '#08f' } })
          .avif({ effort: 0 })
          .toBuffer(),
      ),
  ],
];

/** Positions to cut at: every byte of the first 80, then ~60 spread over the rest. */
function cutPoints(length: number): number[] {
  const points = new Set<number>();
  for (let i = 0; i < Math.min(80, length); i++) points.add(i);
  for (let i = 0; i < 60; i++) points.add(Math.floor((length * i) / 60));
  return [...points];
}

/** The decoder trusts its caller's pixel budget, as `process` applies it from the probed size. */
const pixelsOf = (info: { width?: number; height?: number }) => (info.width ?? 0) * (info.height ?? 0);

/** Runs every header entry point; only MediaError may escape (a hang ends the test at its timeout). */
async function exercise(bytes: Uint8Array): Promise<void> {
  detect(bytes);
  for (const run of [
    () => probe(bytes),
    async () => (pixelsOf(await probe(bytes)) <= 1_000_000 ? decodeBmp(bytes) : undefined),
    async () => firstWebpFrame(bytes),
  ]) {
    try {
      await run();
    } catch (error) {
      if (!(error instanceof MediaError)) throw new Error(`non-MediaError escaped: ${String(error)}`, { cause: error });
    }
  }
}

describe('header side under damage', () => {
  const noise = { warn: vi.spyOn(console, 'warn'), error: vi.spyOn(console, 'error'), log: vi.spyOn(console, 'log') };
  beforeAll(() => Object.values(noise).forEach((spy) => spy.mockClear()));
  afterAll(() => {
    for (const spy of Object.values(noise)) expect(spy).not.toHaveBeenCalled();
    vi.restoreAllMocks();
  });

  it.each(fixtures)('%s: every truncation gives a result or a MediaError', async (_, build) => {
    const bytes = await build();
    for (const cut of cutPoints(bytes.length)) await exercise(bytes.subarray(0, cut));
  });

  it.each(fixtures)('%s: random byte flips give a result or a MediaError', async (name, build) => {
    const bytes = await build();
    const next = make.random(name.length * 7919);
    for (let round = 0; round < 150; round++) {
      const damaged = bytes.slice();
      const flips = 1 + Math.floor(next() * 4);
      for (let f = 0; f < flips; f++) {
        // Half the flips hit the first 64 bytes, where the header lives.
        const at =
          next() < 0.5 ? Math.floor(next() * Math.min(64, damaged.length)) : Math.floor(next() * damaged.length);
        damaged[at] = Math.floor(next() * 256);
      }
      await exercise(damaged);
    }
  });

  it('truncated files are never reported as fine with their full facts', async () => {
    for (const [name, build] of fixtures.filter(([fixtureName]) => /^(png|webp|pdf)/.test(fixtureName))) {
      const bytes = await build();
      const cut = bytes.subarray(0, bytes.length - 20);
      await expect(probe(cut), name).rejects.toBeInstanceOf(MediaError);
    }
  });
});
