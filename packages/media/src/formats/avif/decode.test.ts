// AVIF decoding (dav1d in wasm/avif, the container read in TypeScript), checked against Debian's avifdec
// (libavif 0.11 + dav1d, an independent reader of the container and its colour description) on files made
// by avifenc: 8/10/12-bit, 4:2:0/4:2:2/4:4:4/4:0:0, full and limited range, alpha, premultiplied alpha,
// grids, irot/imir, odd sizes; and damaged files, which must fail with typed errors.
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { avifDec, avifEnc } from '../../../../../test/fixtures/avif-tools.js';
import { heifConvert } from '../../../../../test/fixtures/heif-writer.js';
import { naturalPixels, type Pixels } from '../../../../../test/fixtures/pixels.js';
import { psnr } from '../../../../../test/support/psnr.js';
import '../../entries/node.js';
import { isMediaError, MediaError } from '../../errors.js';
import { probe } from '../../probe.js';
import { process } from '../../process.js';
import { decodeAvif } from './decode.js';
import { setAvifMemoryLimit } from './kernel.js';
import { failsWith } from '../../../../../test/support/typed-errors.js';

const FULL = { width: 1 << 30, height: 1 << 30 };
const photo = naturalPixels(257, 171);

/** A photo with an alpha ramp from opaque (left) to clear (right), and a fully clear corner. */
function withAlpha(pixels: Pixels): Pixels {
  const data = new Uint8Array(pixels.width * pixels.height * 4);
  for (let i = 0; i < pixels.width * pixels.height; i++) {
    const x = i % pixels.width;
    const y = Math.floor(i / pixels.width);
    data.set(pixels.data.subarray(i * 3, i * 3 + 3), i * 4);
    data[i * 4 + 3] = x < 20 && y < 20 ? 0 : 255 - Math.round((x / (pixels.width - 1)) * 200);
  }
  return { data, width: pixels.width, height: pixels.height, channels: 4 };
}

async function decodedAgainstOracle(
  file: Uint8Array,
): Promise<{ psnr: number; hasAlpha: boolean; width: number; height: number }> {
  const decoded = await decodeAvif(file, FULL, 100_000_000);
  const expected = await avifDec(file);
  expect({ width: decoded.raster.width, height: decoded.raster.height }).toEqual({
    width: expected.width,
    height: expected.height,
  });
  return {
    psnr: psnr(decoded.raster.data, expected.data),
    hasAlpha: decoded.hasAlpha,
    width: decoded.raster.width,
    height: decoded.raster.height,
  };
}

async function errorCode(input: Uint8Array): Promise<string | undefined> {
  try {
    await process(input, { maxBytes: 10_000_000 });
  } catch (error) {
    return isMediaError(error) ? error.code : String(error);
  }
  return undefined;
}

let eightBit: Uint8Array;
beforeAll(async () => {
  eightBit = await avifEnc(photo);
}, 60_000);

describe('AVIF pixels match avifdec', () => {
  it.each([
    ['8-bit 4:2:0', []],
    ['10-bit 4:2:0', ['-d', '10']],
    ['12-bit 4:4:4', ['-d', '12', '-y', '444']],
    ['8-bit 4:2:2 limited range', ['-y', '422', '-r', 'limited']],
    ['10-bit monochrome', ['-d', '10', '-y', '400']],
    ['lossless (identity matrix)', ['-l']],
    ['BT.709 matrix', ['--cicp', '1/13/1']],
    ['BT.2020 matrix, 10-bit', ['-d', '10', '--cicp', '9/16/9']],
  ])(
    '%s',
    async (_name, args) => {
      const file = await avifEnc(photo, args);
      const result = await decodedAgainstOracle(file);
      console.log(`PSNR ${_name}: ${result.psnr.toFixed(1)} dB`);
      expect(result.psnr).toBeGreaterThan(40);
      expect(result.hasAlpha).toBe(false);
    },
    60_000,
  );

  it('10-bit with alpha, straight and premultiplied', async () => {
    for (const args of [
      ['-d', '10'],
      ['-d', '10', '-p'],
    ]) {
      const file = await avifEnc(withAlpha(photo), args);
      const info = await probe(file);
      expect(info).toMatchObject({ mediaType: 'image/avif', width: 257, height: 171, hasAlpha: true, bitDepth: 10 });
      const result = await decodedAgainstOracle(file);
      expect(result.hasAlpha).toBe(true);
      expect(result.psnr, args.join(' ')).toBeGreaterThan(38);
    }
  }, 60_000);

  it('assembles a grid (with an alpha grid) tile by tile', async () => {
    const wide = naturalPixels(512, 256, { seed: 5 });
    for (const pixels of [wide, withAlpha(wide)]) {
      const file = await avifEnc(pixels, ['-g', '2x2']);
      const result = await decodedAgainstOracle(file);
      expect(result.psnr).toBeGreaterThan(40);
      expect(result.hasAlpha).toBe(pixels.channels === 4);
    }
  }, 60_000);

  it('shrinks by a whole factor on the way when the target is at least twice smaller', async () => {
    const decoded = await decodeAvif(eightBit, { width: 100, height: 60 }, 100_000_000);
    expect({ width: decoded.raster.width, height: decoded.raster.height }).toEqual({ width: 129, height: 86 });
    const expected = await sharp((await avifDec(eightBit)).data, { raw: { width: 257, height: 171, channels: 4 } })
      .resize(129, 86, { kernel: 'linear' })
      .raw()
      .toBuffer();
    expect(psnr(decoded.raster.data, new Uint8Array(expected))).toBeGreaterThan(30);
  }, 60_000);
});

describe('AVIF through process()', () => {
  it('writes a JPEG for an opaque photo and a PNG where there is alpha', async () => {
    const opaque = await process(eightBit, { maxBytes: 10_000_000 });
    expect(opaque).toMatchObject({
      mediaType: 'image/jpeg',
      width: 257,
      height: 171,
      reencoded: true,
      original: { mediaType: 'image/avif' },
    });
    const transparent = await process(await avifEnc(withAlpha(photo), ['-d', '10']), { maxBytes: 10_000_000 });
    expect(transparent).toMatchObject({ mediaType: 'image/png', width: 257, height: 171 });
  }, 60_000);

  it('turns irot/imir upright', async () => {
    const file = await avifEnc(photo, ['--irot', '1', '--imir', '0']);
    const result = await process(file, { maxBytes: 10_000_000 });
    expect({ width: result.width, height: result.height }).toEqual({ width: 171, height: 257 });
    expect(result.steps).toContain('oriented');
    // heif-convert (libheif 1.15) applies the transformations itself.
    const expected = await heifConvert(file);
    const actual = await sharp(result.data).ensureAlpha().raw().toBuffer();
    expect(psnr(new Uint8Array(actual), expected.data)).toBeGreaterThan(30);
  }, 60_000);

  it('fits a large AVIF within the preset limits', async () => {
    const result = await process(await avifEnc(naturalPixels(1800, 1200, { seed: 9 })), { maxEdge: 800 });
    expect(result).toMatchObject({ mediaType: 'image/jpeg', width: 800, height: 533, resized: true });
  }, 60_000);

  it('refuses truncated and corrupt files with typed errors', async () => {
    for (const cut of [40, Math.floor(eightBit.length / 2), eightBit.length - 10]) {
      expect(['E_CORRUPT'], `cut at ${cut}`).toContain(await errorCode(eightBit.subarray(0, cut)));
    }
    // Damage inside the AV1 data: garbage where the coded frame is.
    for (const seed of [1, 2, 3, 4, 5]) {
      const damaged = eightBit.slice();
      for (let i = eightBit.length - 2000; i < eightBit.length; i += 7)
        damaged[i] = (damaged[i]! * 31 + seed * 17) & 255;
      const code = await errorCode(damaged);
      expect([undefined, 'E_CORRUPT', 'E_UNSUPPORTED'], `seed ${seed}`).toContain(code);
    }
  }, 60_000);

  it('refuses an image over the pixel budget before decoding it', async () => {
    await expect(process(eightBit, { maxInputPixels: 10_000 })).rejects.toMatchObject({ code: 'E_TOO_MANY_PIXELS' });
  });

  it('refuses an item whose frame would not fit the memory limit, before decoding it (the Workers cap)', async () => {
    // 1000×800 8-bit 4:4:4: dav1d's frame is 3 planes of 896 rows of 1088 bytes (2.8 MiB); with its working buffers and the module's
    // 2 MiB, 5.2 MiB: a 4 MiB limit refuses it by the sequence header, 12 MiB decodes it.
    const file = await avifEnc(naturalPixels(1000, 800));
    try {
      setAvifMemoryLimit(4 * 2 ** 20);
      const refused = await failsWith(decodeAvif(file, FULL, 100_000_000), MediaError, 'E_TOO_LARGE');
      expect(String(refused)).toMatch(/1000x800 8-bit 4:4:4 frame needs about 6 MB to decode, over the limit of 4 MB/);
      setAvifMemoryLimit(12 * 2 ** 20);
      const decoded = await decodeAvif(file, FULL, 100_000_000);
      expect(decoded.raster.width).toBe(1000);
    } finally {
      setAvifMemoryLimit(0);
    }
  }, 60_000);
});
