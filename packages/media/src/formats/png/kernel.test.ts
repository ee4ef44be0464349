import { crc32, inflateSync } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { useNodeWasm } from '../../../../../test/support/node-wasm.js';
import { MediaError } from '../../errors.js';
import { rasterSource } from '../../raster/raster-rows.js';
import { decodePngRgba, decodePngRgbaWithAlpha, encodePngRgba, encodePngRowsWithin } from './kernel.js';
import { failsWith } from '../../../../../test/support/typed-errors.js';

useNodeWasm();

/** A deterministic RGBA test card: ramps, hard edges, and (when `withAlpha`) a transparent band. */
function testCard(width: number, height: number, withAlpha: boolean): Uint8Array {
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      rgba[i] = (x * 7) & 255;
      rgba[i + 1] = (y * 5) & 255;
      rgba[i + 2] = ((x >> 3) ^ (y >> 3)) & 1 ? 230 : 20;
      rgba[i + 3] = withAlpha ? Math.round((x / (width - 1)) * 255) : 255;
    }
  }
  return rgba;
}

/** What sharp decodes `png` to, as RGBA8 (its 16-bit PNGs are cast down to 8 first). */
async function sharpRgba(png: Uint8Array): Promise<Uint8Array> {
  const { data } = await sharp(png)
    .toColourspace('srgb')
    .ensureAlpha()
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  return new Uint8Array(data);
}

function largestDifference(a: Uint8Array, b: Uint8Array): number {
  expect(a.length).toBe(b.length);
  let largest = 0;
  for (let i = 0; i < a.length; i++) largest = Math.max(largest, Math.abs((a[i] ?? 0) - (b[i] ?? 0)));
  return largest;
}

/** The colour type byte of the IHDR chunk (2 = RGB, 6 = RGBA). */
function colourType(png: Uint8Array): number | undefined {
  return png[25];
}

describe('own PNG codec', () => {
  const width = 301;
  const height = 157;

  it('round-trips RGBA exactly and writes RGBA when some pixel is not opaque', async () => {
    const rgba = testCard(width, height, true);
    const png = await encodePngRgba({ data: rgba, width, height }, 3);
    expect(colourType(png)).toBe(6);
    const decoded = await decodePngRgba(png);
    expect(decoded).toMatchObject({ width, height });
    expect(Buffer.from(decoded.data).equals(Buffer.from(rgba))).toBe(true);
    // And sharp (libvips) reads the same pixels from it.
    expect(largestDifference(await sharpRgba(png), rgba)).toBe(0);
  });

  it('writes RGB when every pixel is opaque, and it is smaller than the same pixels as RGBA', async () => {
    const rgba = testCard(width, height, false);
    const png = await encodePngRgba({ data: rgba, width, height }, 3);
    expect(colourType(png)).toBe(2);
    const decoded = await decodePngRgba(png);
    expect(Buffer.from(decoded.data).equals(Buffer.from(rgba))).toBe(true);
    const almostOpaque = rgba.slice();
    almostOpaque[3] = 254;
    const withAlpha = await encodePngRgba({ data: almostOpaque, width, height }, 3);
    expect(colourType(withAlpha)).toBe(6);
    expect(png.byteLength).toBeLessThan(withAlpha.byteLength);
  });

  it('writes a correct CRC on every chunk, IEND included, and zlib data whose Adler-32 checks', async () => {
    for (const withAlpha of [false, true]) {
      const png = await encodePngRgba({ data: testCard(width, height, withAlpha), width, height }, 3);
      const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
      const types: string[] = [];
      const idat: Uint8Array[] = [];
      for (let at = 8; at < png.byteLength; ) {
        const length = view.getUint32(at);
        const type = new TextDecoder().decode(png.subarray(at + 4, at + 8));
        types.push(type);
        if (type === 'IDAT') idat.push(png.subarray(at + 8, at + 8 + length));
        expect(view.getUint32(at + 8 + length), `${type} CRC`).toBe(crc32(png.subarray(at + 4, at + 8 + length)));
        at += 12 + length;
      }
      expect(types[0]).toBe('IHDR');
      expect(types.at(-1)).toBe('IEND');
      // inflateSync verifies the stream's Adler-32 and throws on a mismatch.
      expect(inflateSync(Buffer.concat(idat)).byteLength).toBe(height * (1 + width * (withAlpha ? 4 : 3)));
    }
  });

  it("round-trips images one pixel wide or tall (edge cases of the filters' first pixel)", async () => {
    for (const [w, h] of [
      [1, 1],
      [1, 9],
      [9, 1],
    ] as const) {
      for (const withAlpha of [false, true]) {
        const rgba = testCard(Math.max(w, 2), h, withAlpha).subarray(0, w * h * 4);
        const png = await encodePngRgba({ data: rgba, width: w, height: h }, 3);
        expect(Buffer.from((await decodePngRgba(png)).data).equals(Buffer.from(rgba))).toBe(true);
        expect(largestDifference(await sharpRgba(png), rgba)).toBe(0);
      }
    }
  });

  it('compresses harder at a higher zlib level, and level 0 stores', async () => {
    const rgba = testCard(width, height, true);
    const stored = await encodePngRgba({ data: rgba, width, height }, 0);
    const level9 = await encodePngRgba({ data: rgba, width, height }, 9);
    expect(stored.byteLength).toBeGreaterThan(rgba.byteLength);
    expect(level9.byteLength).toBeLessThan(stored.byteLength / 4);
    expect(
      Buffer.from((await decodePngRgba(stored)).data).equals(Buffer.from((await decodePngRgba(level9)).data)),
    ).toBe(true);
  });

  const rgb = { raw: { width, height, channels: 4 as const } };
  // [name, make, IHDR bit depth, colour type, interlace method]
  const kinds: [string, () => Promise<Buffer>, number, number, number][] = [
    [
      '16-bit RGBA',
      async () =>
        sharp(Buffer.from(testCard(width, height, true)), rgb)
          .toColourspace('rgb16')
          .png()
          .toBuffer(),
      16,
      6,
      0,
    ],
    [
      'interlaced (Adam7)',
      async () =>
        sharp(Buffer.from(testCard(width, height, true)), rgb)
          .png({ progressive: true })
          .toBuffer(),
      8,
      6,
      1,
    ],
    [
      'palette with tRNS',
      async () =>
        sharp(Buffer.from(testCard(width, height, true)), rgb)
          .png({ palette: true, colours: 64, dither: 0 })
          .toBuffer(),
      8,
      3,
      0,
    ],
    [
      'palette, 2 bits per pixel',
      async () =>
        sharp(Buffer.from(testCard(width, height, false)), rgb)
          .png({ palette: true, colours: 4, dither: 0 })
          .toBuffer(),
      2,
      3,
      0,
    ],
    [
      'gray + alpha',
      async () =>
        sharp(Buffer.from(testCard(width, height, true)), rgb)
          .toColourspace('b-w')
          .png()
          .toBuffer(),
      8,
      4,
      0,
    ],
    [
      'gray + alpha, 16-bit',
      async () =>
        sharp(Buffer.from(testCard(width, height, false)), rgb)
          .toColourspace('grey16')
          .png()
          .toBuffer(),
      16,
      4,
      0,
    ],
  ];
  for (const [name, make, bitDepth, type, interlace] of kinds) {
    it(`decodes ${name} to the RGBA8 sharp sees`, async () => {
      const png = new Uint8Array(await make());
      expect([png[24], colourType(png), png[28]]).toEqual([bitDepth, type, interlace]);
      const decoded = await decodePngRgba(png);
      expect(decoded).toMatchObject({ width, height });
      // 16-bit → 8: libpng keeps the high byte, libvips rounds; one step apart at most.
      expect(largestDifference(decoded.data, await sharpRgba(png))).toBeLessThanOrEqual(1);
    });
  }

  it('reports whether any pixel is not opaque, for every kind of PNG that can carry alpha', async () => {
    const opaque = testCard(width, height, false);
    const oneTranslucent = opaque.slice();
    oneTranslucent[oneTranslucent.length - 1] = 254; // the very last pixel's alpha
    const cases: [string, Buffer, boolean][] = [
      [
        'RGBA with a transparent band',
        await sharp(Buffer.from(testCard(width, height, true)), rgb)
          .png()
          .toBuffer(),
        true,
      ],
      ['RGBA, every pixel opaque', await sharp(Buffer.from(opaque), rgb).png().toBuffer(), false],
      ['RGBA, only the last pixel translucent', await sharp(Buffer.from(oneTranslucent), rgb).png().toBuffer(), true],
      ['RGB', await sharp(Buffer.from(opaque), rgb).removeAlpha().png().toBuffer(), false],
      ['interlaced RGBA', await sharp(Buffer.from(oneTranslucent), rgb).png({ progressive: true }).toBuffer(), true],
      [
        'palette with tRNS',
        await sharp(Buffer.from(testCard(width, height, true)), rgb)
          .png({ palette: true, colours: 64, dither: 0 })
          .toBuffer(),
        true,
      ],
    ];
    for (const [name, png, transparent] of cases) {
      const decoded = await decodePngRgbaWithAlpha(new Uint8Array(png));
      let anyBelow255 = false;
      for (let i = 3; i < decoded.raster.data.length; i += 4) if (decoded.raster.data[i] !== 255) anyBelow255 = true;
      expect({ name, hasAlpha: decoded.hasAlpha }).toEqual({ name, hasAlpha: transparent });
      expect(anyBelow255).toBe(transparent);
    }
  });

  it('decodes and encodes tall images band by band; the decoded raster owns its buffer', async () => {
    // 64 px rows are 256 bytes: 1500 rows span several of the decoder's bands, the last one partial.
    for (const [w, h] of [
      [64, 1500],
      [3, 40000],
    ] as const) {
      const rgba = testCard(w, h, true);
      const png = await encodePngRgba({ data: rgba, width: w, height: h }, 1);
      const decoded = await decodePngRgbaWithAlpha(png);
      expect(decoded.hasAlpha).toBe(true);
      expect(decoded.raster.data.byteOffset).toBe(0);
      expect(decoded.raster.data.buffer.byteLength).toBe(w * h * 4);
      expect(Buffer.from(decoded.raster.data).equals(Buffer.from(rgba))).toBe(true);
    }
    // The encoder reads in bands too: one translucent pixel in the last band still makes it RGBA.
    const lastTranslucent = testCard(64, 1500, false);
    lastTranslucent[lastTranslucent.length - 1] = 254;
    const png = await encodePngRgba({ data: lastTranslucent, width: 64, height: 1500 }, 1);
    expect(colourType(png)).toBe(6);
    expect(Buffer.from((await decodePngRgba(png)).data).equals(Buffer.from(lastTranslucent))).toBe(true);
    expect(colourType(await encodePngRgba({ data: testCard(64, 1500, false), width: 64, height: 1500 }, 1))).toBe(2);
  });

  it('writes a PNG of several 1 MB output blocks whole, and gives one up past a byte limit', async () => {
    // Noise barely compresses: 900×700 RGBA makes a PNG of about 2.5 MB, kept in three blocks.
    const [w, h] = [900, 700];
    const rgba = new Uint8Array(w * h * 4);
    let seed = 1;
    for (let i = 0; i < rgba.length; i++) {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      rgba[i] = seed >>> 24;
    }
    const raster = { data: rgba, width: w, height: h };
    const png = await encodePngRgba(raster, 2);
    expect(png.byteLength).toBeGreaterThan(2 * 2 ** 20);
    expect(Buffer.from((await decodePngRgba(png)).data).equals(Buffer.from(rgba))).toBe(true);
    const within = await encodePngRowsWithin(rasterSource(raster, true), 2, png.byteLength);
    expect(within && Buffer.from(within).equals(Buffer.from(png))).toBe(true);
    expect(await encodePngRowsWithin(rasterSource(raster, true), 2, png.byteLength - 1)).toBeUndefined();
    expect(await encodePngRowsWithin(rasterSource(raster, true), 2, 100_000)).toBeUndefined();
  });

  it('reports a truncated or damaged PNG as E_CORRUPT, and the next call works (fresh instance)', async () => {
    const png = await encodePngRgba({ data: testCard(width, height, true), width, height }, 3);
    const damaged = [png.subarray(0, 20), png.subarray(0, png.byteLength >> 1), png.slice()];
    const broken = damaged[2];
    if (broken) broken[60] = (broken[60] ?? 0) ^ 0xff; // inside IDAT: the deflate stream no longer decodes
    for (const bytes of [...damaged, new Uint8Array(0), new TextEncoder().encode('not a png at all')]) {
      const error = await failsWith(decodePngRgba(bytes), MediaError, 'E_CORRUPT');
      expect(error.details).toMatchObject({ format: 'PNG' });
    }
    expect((await decodePngRgba(png)).width).toBe(width);
  });

  it('decodes a file that ends right after its image data (no IEND)', async () => {
    const png = await encodePngRgba({ data: testCard(width, height, false), width, height }, 3);
    const decoded = await decodePngRgba(png.subarray(0, png.byteLength - 12));
    expect(Buffer.from(decoded.data).equals(Buffer.from(testCard(width, height, false)))).toBe(true);
  });
});
