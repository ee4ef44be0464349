import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { useNodeWasm } from '../../../../../test/support/node-wasm.js';
import { decodeJpegScaled, encodeJpegBaseline, jpegScaleEighths } from './kernel.js';

useNodeWasm();

/** Smooth colour ramps: JPEG keeps them well, so decoded pixels can be compared closely. */
function ramps(width: number, height: number): Buffer {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      raw[i] = Math.round((x / width) * 255);
      raw[i + 1] = Math.round((y / height) * 255);
      raw[i + 2] = Math.round(128 + 100 * Math.sin(x / 40) * Math.cos(y / 30));
    }
  }
  return raw;
}

function meanAbsoluteError(rgba: Uint8Array, rgb: Uint8Array): number {
  let total = 0;
  for (let p = 0; p < rgb.length / 3; p++) {
    for (let c = 0; c < 3; c++) total += Math.abs((rgba[p * 4 + c] ?? 0) - (rgb[p * 3 + c] ?? 0));
  }
  return total / rgb.length;
}

describe('own JPEG codec', () => {
  const width = 640;
  const height = 480;
  const raw = ramps(width, height);
  const jpeg = () =>
    sharp(raw, { raw: { width, height, channels: 3 } })
      .jpeg({ quality: 92 })
      .toBuffer();

  it('decodes at full size to opaque RGBA close to the source', async () => {
    const out = await decodeJpegScaled(new Uint8Array(await jpeg()));
    expect([out.width, out.height, out.data.byteLength]).toEqual([width, height, width * height * 4]);
    expect(out.data.filter((_, i) => i % 4 === 3).every((a) => a === 255)).toBe(true);
    expect(meanAbsoluteError(out.data, raw)).toBeLessThan(2);
  });

  it('decodes at M/8 scale in the DCT domain, close to a Lanczos downscale', async () => {
    for (const eighths of [4, 2, 3]) {
      const out = await decodeJpegScaled(new Uint8Array(await jpeg()), eighths);
      const w = Math.ceil((width * eighths) / 8);
      const h = Math.ceil((height * eighths) / 8);
      expect([out.width, out.height]).toEqual([w, h]);
      const reference = await sharp(raw, { raw: { width, height, channels: 3 } })
        .resize(w, h, { kernel: 'lanczos3', fit: 'fill' })
        .raw()
        .toBuffer();
      expect(meanAbsoluteError(out.data, new Uint8Array(reference))).toBeLessThan(2.5);
    }
  });

  it('decodes CMYK JPEGs to RGB', async () => {
    const cmyk = await sharp({ create: { width: 32, height: 16, channels: 3, background: { r: 200, g: 30, b: 60 } } })
      .toColourspace('cmyk')
      .jpeg({ quality: 95 })
      .toBuffer();
    const out = await decodeJpegScaled(new Uint8Array(cmyk));
    const [r = 0, g = 0, b = 0] = out.data;
    expect(Math.abs(r - 200)).toBeLessThan(30);
    expect(Math.abs(g - 30)).toBeLessThan(30);
    expect(Math.abs(b - 60)).toBeLessThan(30);
  });

  it('encodes baseline JPEG that sharp reads back at the same size and close colours', async () => {
    const rgba = new Uint8Array(width * height * 4);
    for (let p = 0; p < width * height; p++)
      rgba.set([raw[p * 3] ?? 0, raw[p * 3 + 1] ?? 0, raw[p * 3 + 2] ?? 0, 255], p * 4);
    const encoded = await encodeJpegBaseline({ data: rgba, width, height }, 80);
    const meta = await sharp(encoded).metadata();
    expect([meta.format, meta.width, meta.height, meta.isProgressive, meta.chromaSubsampling]).toEqual([
      'jpeg',
      width,
      height,
      false,
      '4:2:0',
    ]);
    const back = await sharp(encoded).raw().toBuffer();
    expect(meanAbsoluteError(rgba, new Uint8Array(back))).toBeLessThan(3);
  });

  it('decodes arithmetic-coded JPEGs (fixture: cjpeg -arithmetic -quality 95 of the pattern below)', async () => {
    const bytes = new Uint8Array(await readFile(new URL('./fixtures/arithmetic-48x32.jpg', import.meta.url)));
    const out = await decodeJpegScaled(bytes);
    expect([out.width, out.height]).toEqual([48, 32]);
    const pattern = Buffer.alloc(48 * 32 * 3);
    for (let y = 0; y < 32; y++)
      for (let x = 0; x < 48; x++) pattern.set([x * 5, y * 8, x < 24 ? 200 : 40], (y * 48 + x) * 3);
    expect(meanAbsoluteError(out.data, pattern)).toBeLessThan(4);
  });

  it('turns damaged data into E_CORRUPT and keeps working afterwards', async () => {
    const bytes = new Uint8Array(await jpeg());
    await expect(decodeJpegScaled(bytes.subarray(0, 200))).rejects.toMatchObject({ code: 'E_CORRUPT' });
    await expect(decodeJpegScaled(new Uint8Array([0xff, 0xd8, 0xff, 0x00, 1, 2, 3]))).rejects.toMatchObject({
      code: 'E_CORRUPT',
    });
    expect((await decodeJpegScaled(bytes, 1)).width).toBe(80);
  });

  it('picks the smallest scale that still covers the target', () => {
    expect(jpegScaleEighths(4000, 3000, 2000, 1500)).toBe(4);
    expect(jpegScaleEighths(4000, 3000, 2001, 1500)).toBe(5);
    expect(jpegScaleEighths(6000, 4000, 2000, 1333)).toBe(3);
    expect(jpegScaleEighths(1000, 800, 999, 799)).toBe(8);
    expect(jpegScaleEighths(8000, 8000, 10, 10)).toBe(1);
  });
});
