// ICO/CUR decoding, checked against ImageMagick (/usr/bin/convert) on icons it writes: PNG entries for
// 256 px, BMP entries (with AND masks) below that.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { encodeBmp } from '../../../../../test/fixtures/bmp-encoder.js';
import { concatBytes, naturalPixels } from '../../../../../test/fixtures/pixels.js';
import { MediaError, probe, process } from '@glimpse/media';
import { decodeIco } from './decode.js';
import { failsWith } from '../../../../../test/support/typed-errors.js';

const MAGICK = '/usr/bin/convert';

/** An icon made by ImageMagick from an RGBA picture, with one entry per size. */
async function icon(sizes: number[], { cursor = false }: { cursor?: boolean } = {}): Promise<Uint8Array> {
  const folder = mkdtempSync(join(tmpdir(), 'glimpse-ico-'));
  try {
    const { data, width, height } = naturalPixels(256, 256, { channels: 4 });
    await sharp(data, { raw: { width, height, channels: 4 } })
      .png()
      .toFile(join(folder, 'in.png'));
    const out = join(folder, cursor ? 'out.cur' : 'out.ico');
    execFileSync(MAGICK, [join(folder, 'in.png'), '-define', `icon:auto-resize=${sizes.join(',')}`, out]);
    return new Uint8Array(readFileSync(out));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/**
 * An icon ImageMagick does not write: one paletted BMP entry (`bits` per pixel, no alpha) whose AND mask
 * makes a disc in the middle transparent.
 */
function paletteIcon(size: number, bits: 4 | 8): Uint8Array {
  const bmp = encodeBmp(naturalPixels(size, size), { bitsPerPixel: bits });
  const dib = bmp.slice(14);
  new DataView(dib.buffer).setInt32(8, size * 2, true);
  const maskStride = Math.floor((size + 31) / 32) * 4;
  const mask = new Uint8Array(maskStride * size);
  for (let row = 0; row < size; row++) {
    for (let x = 0; x < size; x++) {
      const y = size - 1 - row; // bottom-up
      if (Math.hypot(x - size / 2, y - size / 2) < size / 4) mask[row * maskStride + (x >> 3)]! |= 0x80 >> (x & 7);
    }
  }
  const body = concatBytes([dib, mask]);
  const directory = new Uint8Array(22);
  const view = new DataView(directory.buffer);
  view.setUint16(2, 1, true);
  view.setUint16(4, 1, true);
  directory.set([size, size, bits === 4 ? 16 : 0, 0], 6);
  view.setUint16(10, 1, true);
  view.setUint16(12, bits, true);
  view.setUint32(14, body.length, true);
  view.setUint32(18, 22, true);
  return concatBytes([directory, body]);
}

/** ImageMagick's own decoding of entry `index` as RGBA. */
function magickRgba(file: Uint8Array, index: number, extension = 'ico'): Uint8Array {
  const folder = mkdtempSync(join(tmpdir(), 'glimpse-ico-'));
  try {
    writeFileSync(join(folder, `in.${extension}`), file);
    return new Uint8Array(
      execFileSync(MAGICK, [`${join(folder, `in.${extension}`)}[${index}]`, '-depth', '8', 'rgba:-'], {
        maxBuffer: 1 << 26,
      }),
    );
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

function maxDifference(a: Uint8Array, b: Uint8Array): number {
  expect(a.length).toBe(b.length);
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs((a[i] ?? 0) - (b[i] ?? 0)));
  return max;
}

describe('ICO/CUR', () => {
  it("takes the largest entry, a PNG, and gives ImageMagick's pixels", async () => {
    const file = await icon([16, 32, 256]);
    expect(await probe(file)).toMatchObject({
      mediaType: 'image/x-icon',
      width: 256,
      height: 256,
      lossless: true,
      hasAlpha: true,
    });
    const { raster, hasAlpha } = await decodeIco(file);
    expect({ width: raster.width, height: raster.height, hasAlpha }).toEqual({
      width: 256,
      height: 256,
      hasAlpha: true,
    });
    expect(maxDifference(raster.data, magickRgba(file, 2))).toBe(0);
  });

  it('decodes a 32-bit BMP entry with its alpha', async () => {
    const file = await icon([16, 48]);
    expect(await probe(file)).toMatchObject({ bitDepth: 32, width: 48, height: 48 });
    const { raster } = await decodeIco(file);
    expect(maxDifference(raster.data, magickRgba(file, 1))).toBe(0);
  });

  it('decodes paletted BMP entries, their AND mask as transparency', async () => {
    for (const bits of [4, 8] as const) {
      const file = paletteIcon(40, bits);
      const { raster, hasAlpha } = await decodeIco(file);
      expect({ width: raster.width, height: raster.height, hasAlpha }).toEqual({
        width: 40,
        height: 40,
        hasAlpha: true,
      });
      expect(maxDifference(raster.data, magickRgba(file, 0)), `${bits}-bit`).toBe(0);
      // probe says so from the mask; with the mask cleared, the icon is opaque.
      expect((await probe(file)).hasAlpha).toBe(true);
      const opaque = file.slice();
      opaque.fill(0, opaque.length - Math.floor((40 + 31) / 32) * 4 * 40);
      expect((await probe(opaque)).hasAlpha, `${bits}-bit, no mask bits`).toBe(false);
    }
  });

  it('reads cursors (CUR) the same way', async () => {
    const file = await icon([32], { cursor: true });
    expect(await probe(file)).toMatchObject({ mediaType: 'image/x-icon', width: 32, height: 32 });
    const { raster } = await decodeIco(file);
    expect(maxDifference(raster.data, magickRgba(file, 0, 'cur'))).toBe(0);
  });

  it('converts through process() to PNG, keeping transparency', async () => {
    const result = await process(await icon([16, 32, 256]));
    expect(result).toMatchObject({ mediaType: 'image/png', width: 256, height: 256, steps: ['converted'] });
  });

  it('refuses truncated and damaged icons with E_CORRUPT', async () => {
    const file = await icon([16, 48]);
    for (const length of [30, 100, file.length - 50]) {
      await failsWith(process(file.subarray(0, length)), MediaError, 'E_CORRUPT');
    }
    // Cut inside a smaller entry the decoder does not show: the file is still cut short.
    const sizes = await icon([256, 16]);
    const view = new DataView(sizes.buffer, sizes.byteOffset);
    const offsetField = (side: number) =>
      [0, 1].map((index) => 6 + index * 16).find((entry) => sizes[entry] === side % 256)! + 12;
    const small = view.getUint32(offsetField(16), true);
    expect(small).toBeGreaterThan(view.getUint32(offsetField(256), true)); // the 16 px entry is stored last
    const error16 = await failsWith(process(sizes.subarray(0, small + 10)), MediaError, 'E_CORRUPT');
    expect(error16.message).toContain('truncated');
    const damaged = file.slice();
    damaged.set([0xff, 0xff, 0xff, 0x7f], 6 + 12); // the first entry's offset far past the end
    damaged.set([0xff, 0xff, 0xff, 0x7f], 6 + 16 + 12);
    await failsWith(process(damaged), MediaError, 'E_CORRUPT');
  });
});
