// TIFF decoding, checked against ImageMagick (/usr/bin/convert, which reads TIFF with Debian's libtiff
// through its own code) on files it writes: strips and tiles, every common compression, 8/16-bit, gray,
// palette, RGB, CMYK, alpha, several pages.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { isMediaError, probe, process } from '@glimpse/media';
import { beforeAll, describe, expect, it } from 'vitest';
import { naturalPixels } from '../../../../test/fixtures/pixels.js';
import { rasterSink } from '../raster-rows.js';
import type { Raster, TiffInfo } from '../types.js';
import { tiffDecoder } from './tiff.js';

const MAGICK = '/usr/bin/convert';
let folder: string;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'glimpse-tiff-'));
  const rgba = naturalPixels(150, 100, { channels: 4 });
  await sharp(rgba.data, { raw: { width: 150, height: 100, channels: 4 } })
    .png()
    .toFile(join(folder, 'rgba.png'));
  const rgb = naturalPixels(150, 100, { seed: 2 });
  await sharp(rgb.data, { raw: { width: 150, height: 100, channels: 3 } })
    .png()
    .toFile(join(folder, 'rgb.png'));
  return () => rmSync(folder, { recursive: true, force: true });
});

/** A TIFF ImageMagick writes from `source` (rgb.png or rgba.png) with `args`. */
function tiff(source: string, args: string[], inputs: string[] = [join(folder, source)]): Uint8Array {
  const out = join(folder, 'out.tif');
  execFileSync(MAGICK, [...inputs, ...args, out]);
  return new Uint8Array(readFileSync(out));
}

/** ImageMagick's reading of page 0 as 8-bit RGBA. */
function magickRgba(file: Uint8Array): Uint8Array {
  const path = join(folder, 'oracle.tif');
  writeFileSync(path, file);
  return new Uint8Array(execFileSync(MAGICK, [`${path}[0]`, '-depth', '8', 'rgba:-'], { maxBuffer: 1 << 26 }));
}

/** The first page's RGBA, through the codec contract into a sink that keeps every row. */
async function decodeTiff(file: Uint8Array): Promise<Raster> {
  const facts = (await probe(file)) as TiffInfo;
  const sink = rasterSink();
  await tiffDecoder({ bytes: file, facts, cover: facts, sink });
  return sink.raster();
}

function meanDifference(a: Uint8Array, b: Uint8Array): number {
  expect(a.length).toBe(b.length);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs((a[i] ?? 0) - (b[i] ?? 0));
  return sum / a.length;
}

const CASES: { name: string; source: string; args: string[]; tolerance: number }[] = [
  { name: 'RGB, strips, uncompressed', source: 'rgb.png', args: ['-compress', 'none'], tolerance: 0 },
  {
    name: 'RGB, strips, LZW with predictor',
    source: 'rgb.png',
    args: ['-compress', 'lzw', '-define', 'tiff:predictor=2'],
    tolerance: 0,
  },
  {
    name: 'RGB, tiles 64×64, Deflate',
    source: 'rgb.png',
    args: ['-compress', 'zip', '-define', 'tiff:tile-geometry=64x64'],
    tolerance: 0,
  },
  { name: 'RGB, PackBits', source: 'rgb.png', args: ['-compress', 'rle'], tolerance: 0 },
  { name: 'RGB, 16-bit, LZW', source: 'rgb.png', args: ['-depth', '16', '-compress', 'lzw'], tolerance: 0.01 },
  { name: 'gray, 8-bit', source: 'rgb.png', args: ['-colorspace', 'gray', '-compress', 'lzw'], tolerance: 0 },
  // 16-bit gray: libtiff keeps the high byte, ImageMagick rounds.
  {
    name: 'gray, 16-bit, tiled',
    source: 'rgb.png',
    args: ['-colorspace', 'gray', '-depth', '16', '-define', 'tiff:tile-geometry=32x32'],
    tolerance: 1,
  },
  // Palette: 16-bit colour map entries, which the two bring to 8 bits with different rounding (±1).
  { name: 'palette', source: 'rgb.png', args: ['-type', 'palette', '-compress', 'lzw'], tolerance: 0.5 },
  { name: 'bilevel, CCITT G4', source: 'rgb.png', args: ['-monochrome', '-compress', 'group4'], tolerance: 0 },
  { name: 'CMYK', source: 'rgb.png', args: ['-colorspace', 'cmyk', '-compress', 'lzw'], tolerance: 1 },
  // libtiff's RGBA interface converts 8-bit CMYK only, and drops its alpha; the decoder converts the rest.
  {
    name: 'CMYK, 16-bit',
    source: 'rgb.png',
    args: ['-colorspace', 'cmyk', '-depth', '16', '-compress', 'lzw'],
    tolerance: 1,
  },
  { name: 'RGBA, unassociated alpha', source: 'rgba.png', args: ['-compress', 'lzw'], tolerance: 0 },
  { name: 'CMYK with alpha', source: 'rgba.png', args: ['-colorspace', 'cmyk', '-compress', 'lzw'], tolerance: 1 },
  {
    name: 'CMYK with alpha, 16-bit',
    source: 'rgba.png',
    args: ['-colorspace', 'cmyk', '-depth', '16', '-compress', 'lzw'],
    tolerance: 1,
  },
  { name: 'JPEG-in-TIFF (YCbCr)', source: 'rgb.png', args: ['-compress', 'jpeg', '-quality', '90'], tolerance: 3 },
];

describe('TIFF', () => {
  for (const { name, source, args, tolerance } of CASES) {
    it(`${name}: ImageMagick's pixels`, async () => {
      const file = tiff(source, args);
      expect(await probe(file)).toMatchObject({ mediaType: 'image/tiff', width: 150, height: 100, pages: 1 });
      const raster = await decodeTiff(file);
      expect({ width: raster.width, height: raster.height }).toEqual({ width: 150, height: 100 });
      expect(meanDifference(raster.data, magickRgba(file))).toBeLessThanOrEqual(tolerance);
    });
  }

  // 1000×600 RGB: one strip holds the whole image (as many scanners write), or 256×256 tiles.
  for (const { layout, args, bandRows } of [
    { layout: 'one strip', args: ['-define', 'tiff:rows-per-strip=600'], bandRows: 65 },
    { layout: 'tiles', args: ['-define', 'tiff:tile-geometry=256x256'], bandRows: 256 },
  ]) {
    it(`${layout}: rows arrive in bands of ${bandRows}, ImageMagick's pixels`, async () => {
      const big = join(folder, 'big.png');
      await sharp(naturalPixels(1000, 600, { seed: 3 }).data, { raw: { width: 1000, height: 600, channels: 3 } })
        .png()
        .toFile(big);
      const file = tiff('big.png', ['-compress', 'lzw', '-define', 'tiff:predictor=2', ...args]);
      const facts = (await probe(file)) as TiffInfo;
      const sink = rasterSink();
      const bands: number[] = [];
      await tiffDecoder({
        bytes: file,
        facts,
        cover: facts,
        sink: {
          start: (layout) => sink.start(layout),
          write(pixels, rows) {
            bands.push(rows);
            sink.write(pixels, rows);
          },
        },
      });
      // ~256 KB of RGBA a band when read by scanline; one row of tiles when tiled; never the whole image.
      expect(bands).toEqual(
        Array.from({ length: Math.ceil(600 / bandRows) }, (_, i) => Math.min(bandRows, 600 - i * bandRows)),
      );
      expect(meanDifference(sink.raster().data, magickRgba(file))).toBe(0);
    });
  }

  it('a multi-page file: the first page, and a step and page count saying so', async () => {
    const file = tiff(
      'rgb.png',
      ['-compress', 'lzw'],
      [join(folder, 'rgb.png'), join(folder, 'rgba.png'), join(folder, 'rgb.png')],
    );
    expect(await probe(file)).toMatchObject({ pages: 3 });
    const result = await process(file);
    expect(result).toMatchObject({ mediaType: 'image/png', width: 150, height: 100, original: { pages: 3 } });
    expect(result.steps).toEqual(['first-page', 'converted']);
  });

  it('turns an oriented TIFF upright', async () => {
    const file = tiff('rgb.png', ['-orient', 'right-top']);
    expect(await probe(file)).toMatchObject({ orientation: 6 });
    const result = await process(file);
    expect({ width: result.width, height: result.height, steps: result.steps }).toEqual({
      width: 100,
      height: 150,
      steps: ['oriented', 'converted'],
    });
  });

  it('JPEG-compressed TIFF comes out as JPEG, lossless ones as PNG', async () => {
    expect((await process(tiff('rgb.png', ['-compress', 'jpeg']))).mediaType).toBe('image/jpeg');
    expect((await process(tiff('rgb.png', ['-compress', 'lzw']))).mediaType).toBe('image/png');
  });

  it('refuses truncated and damaged files with a typed error', async () => {
    for (const args of [
      ['-compress', 'lzw'],
      ['-compress', 'jpeg'],
      ['-compress', 'zip', '-define', 'tiff:tile-geometry=64x64'],
    ]) {
      const file = tiff('rgb.png', args);
      for (const length of [8, 40, Math.floor(file.length / 2), file.length - 200]) {
        const error = await process(file.subarray(0, length)).catch((caught: unknown) => caught);
        // A cut may leave a readable header and damaged pixels: E_CORRUPT either way, never a crash.
        expect(isMediaError(error) ? error.code : error, `${args.join(' ')} cut at ${length}`).toBe('E_CORRUPT');
      }
    }
  });

  it('refuses a header-declared bomb before decoding', async () => {
    const file = tiff('rgb.png', ['-compress', 'lzw']).slice();
    // IFD0's ImageWidth and ImageLength (SHORT or LONG) rewritten to 60000.
    const view = new DataView(file.buffer);
    const little = file[0] === 0x49;
    const ifd = view.getUint32(4, little);
    for (let entry = 0; entry < view.getUint16(ifd, little); entry++) {
      const at = ifd + 2 + entry * 12;
      const tag = view.getUint16(at, little);
      if (tag !== 256 && tag !== 257) continue;
      if (view.getUint16(at + 2, little) === 3) view.setUint16(at + 8, 60000, little);
      else view.setUint32(at + 8, 60000, little);
    }
    const error = await process(file).catch((caught: unknown) => caught);
    expect(isMediaError(error) && error.code).toBe('E_TOO_MANY_PIXELS');
  });
});
