import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { useNodeWasm } from '../../../../test/support/node-wasm.js';
import type { Raster } from '../types.js';
import { resizeKernel, resizeWithKernel } from './resize-kernel.js';

useNodeWasm();

function raster(
  width: number,
  height: number,
  pixel: (x: number, y: number) => [number, number, number, number],
): Raster {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) data.set(pixel(x, y), (y * width + x) * 4);
  }
  return { data, width, height };
}

/** A photo-like test card: smooth gradients, a hard-edged disc and mild deterministic grain. */
function testCard(width: number, height: number): Raster {
  let seed = 12345;
  const grain = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 24) / 32 - 4;
  return raster(width, height, (x, y) => {
    const inDisc = (x - width / 2) ** 2 + (y - height / 2) ** 2 < (height / 3) ** 2;
    const r = inDisc ? 220 : (x / width) * 255;
    const g = inDisc ? 40 : (y / height) * 255;
    const b = 128 + 100 * Math.sin(x / 37) * Math.cos(y / 23);
    const byte = (v: number) => Math.max(0, Math.min(255, Math.round(v)));
    return [byte(r + grain()), byte(g + grain()), byte(b + grain()), 255];
  });
}

function psnr(a: Uint8Array, b: Uint8Array): number {
  let squared = 0;
  let count = 0;
  for (let i = 0; i < a.length; i++) {
    if (i % 4 === 3) continue;
    squared += ((a[i] ?? 0) - (b[i] ?? 0)) ** 2;
    count++;
  }
  return 10 * Math.log10((255 * 255) / (squared / count));
}

describe('resizeWithKernel', () => {
  it('keeps a flat colour exactly flat, at every size and factor', async () => {
    const flat = raster(403, 301, () => [12, 200, 99, 255]);
    for (const [w, h] of [
      [200, 150],
      [61, 45],
      [17, 3],
      [1, 1],
      [403, 150],
      [500, 400],
    ] as const) {
      const out = await resizeWithKernel(flat, w, h, false);
      expect([out.width, out.height, out.data.length]).toEqual([w, h, w * h * 4]);
      expect(out.data.every((v, i) => v === [12, 200, 99, 255][i % 4])).toBe(true);
    }
  });

  it('matches sharp’s Lanczos-3 on a photo-like image within 35 dB, with the box pre-shrink engaged', async () => {
    const card = testCard(1600, 1200);
    for (const [w, h] of [
      [800, 600],
      [333, 250],
      [120, 90],
    ] as const) {
      const ours = await resizeWithKernel(card, w, h, false);
      const reference = await sharp(card.data, { raw: { width: card.width, height: card.height, channels: 4 } })
        .resize(w, h, { kernel: 'lanczos3', fit: 'fill' })
        .raw()
        .toBuffer();
      expect(psnr(ours.data, new Uint8Array(reference))).toBeGreaterThan(35);
    }
  });

  it('does not bleed the colour of transparent pixels into visible ones', async () => {
    // Left half: fully transparent "red" (garbage colour); right half: opaque blue.
    const half = raster(64, 8, (x) => (x < 32 ? [255, 0, 0, 0] : [0, 0, 255, 255]));
    const out = await resizeWithKernel(half, 16, 2, true);
    const visibleReds = Array.from({ length: 16 }, (_, x) => x * 4)
      .filter((i) => (out.data[i + 3] ?? 0) > 0)
      .map((i) => out.data[i]);
    expect(visibleReds.length).toBeGreaterThan(0);
    expect(visibleReds.filter((red) => (red ?? 0) >= 8)).toEqual([]);
    expect(out.data[15 * 4 + 3]).toBe(255);
    expect(out.data[3]).toBe(0);
  });

  it('returns a raster that owns its buffer, for tiny and enlarging sizes too', async () => {
    const card = testCard(7, 5);
    for (const [w, h] of [
      [3, 2],
      [1, 1],
      [14, 10],
    ] as const) {
      const out = await resizeWithKernel(card, w, h, true);
      expect(out.data.buffer.byteLength).toBe(w * h * 4);
      expect(out.data.byteOffset).toBe(0);
    }
  });

  it('gives the same rows whatever bands the source arrives in', async () => {
    const card = testCard(301, 203);
    const whole = await resizeWithKernel(card, 97, 61, true);
    for (const band of [1, 2, 7, 64]) {
      const kernel = await resizeKernel();
      const out = new Uint8Array(97 * 61 * 4);
      let at = 0;
      const stream = kernel.start({ source: card, target: { width: 97, height: 61 }, premultiply: true }, (rows) => {
        out.set(rows, at);
        at += rows.byteLength;
      });
      for (let y = 0; y < card.height; y += band) {
        const rows = Math.min(band, card.height - y);
        stream.write(card.data.subarray(y * card.width * 4, (y + rows) * card.width * 4), rows);
      }
      stream.end();
      expect(Buffer.from(out).equals(Buffer.from(whole.data))).toBe(true);
    }
  });

  it('holds only the rows its filter windows span, not the image', async () => {
    // 8000×6000 (192 MB as RGBA) to 2000×1500, fed one 8000-pixel row at a time.
    const kernel = await resizeKernel();
    const row = testCard(8000, 1).data;
    let made = 0;
    const stream = kernel.start(
      { source: { width: 8000, height: 6000 }, target: { width: 2000, height: 1500 }, premultiply: false },
      (_rows, count) => {
        made += count;
      },
    );
    for (let y = 0; y < 6000; y++) stream.write(row.slice(), 1);
    stream.end();
    expect(made).toBe(1500);
    expect(kernel.memoryBytes()).toBeLessThan(2 * 2 ** 20);
  });
});
