// TIFF decoding, checked against ImageMagick (/usr/bin/convert, which reads TIFF with Debian's libtiff
// through its own code) on files it writes: strips and tiles, every common compression, 8/16-bit, gray,
// palette, RGB, CMYK, alpha, several pages.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { isMediaError, MediaError, probe, process } from '@glimpse/media';
import { beforeAll, describe, expect, it } from 'vitest';
import { naturalPixels } from '../../../../../test/fixtures/pixels.js';
import { separatePlanesTiff } from '../../../../../test/fixtures/tiff-planes.js';
import { rasterSink } from '../../raster/raster-rows.js';
import { DEFAULT_MAX_INPUT_PIXELS } from '../../presets/limits.js';
import type { Raster } from '../../types.js';
import { tiffDecoder } from './decode.js';
import { probeTiff } from './probe.js';
import { failsWith } from '../../../../../test/support/typed-errors.js';

const MAGICK = '/usr/bin/convert';
const TIFFCP = '/usr/bin/tiffcp';
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
  const facts = probeTiff(file).info;
  const sink = rasterSink();
  await tiffDecoder({ bytes: file, facts, cover: facts, sink, maxInputPixels: DEFAULT_MAX_INPUT_PIXELS });
  return sink.raster();
}

function meanDifference(a: Uint8Array, b: Uint8Array): number {
  expect(a.length).toBe(b.length);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs((a[i] ?? 0) - (b[i] ?? 0));
  return sum / a.length;
}

/** ImageMagick's samples of a CMYK TIFF it wrote (`-endian MSB`: as separatePlanesTiff lays them out). */
function cmykSamples(file: Uint8Array, bits: 8 | 16, alpha: boolean): Uint8Array {
  const path = join(folder, 'samples.tif');
  writeFileSync(path, file);
  const format = alpha ? 'cmyka:-' : 'cmyk:-';
  return new Uint8Array(execFileSync(MAGICK, [path, '-depth', String(bits), '-endian', 'MSB', format]));
}

/** `file` rewritten by tiffcp with `args` (re-tiled, re-compressed; tiffcp keeps separate planes separate). */
function tiffcp(file: Uint8Array, args: string[]): Uint8Array {
  const from = join(folder, 'tiffcp-in.tif');
  const to = join(folder, 'tiffcp-out.tif');
  writeFileSync(from, file);
  execFileSync(TIFFCP, [...args, from, to]);
  return new Uint8Array(readFileSync(to));
}

/** tiffinfo's description of `file` (Debian's libtiff tools): an independent word on its layout. */
function tiffinfo(file: Uint8Array): string {
  const path = join(folder, 'info.tif');
  writeFileSync(path, file);
  return execFileSync('/usr/bin/tiffinfo', [path], { encoding: 'utf8' });
}

/** Where IFD0's entry for `tag` keeps its values (inline or at an offset), their count and size. */
function tagValues(file: Uint8Array, tag: number): { at: number; count: number; size: number } {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const little = file[0] === 0x49;
  const ifd = view.getUint32(4, little);
  for (let entry = 0; entry < view.getUint16(ifd, little); entry++) {
    const at = ifd + 2 + entry * 12;
    if (view.getUint16(at, little) !== tag) continue;
    const size = view.getUint16(at + 2, little) === 3 ? 2 : 4;
    const count = view.getUint32(at + 4, little);
    return { at: count * size > 4 ? view.getUint32(at + 8, little) : at + 8, count, size };
  }
  throw new Error(`no tag ${tag} in IFD0`);
}

/** The offsets (StripOffsets 273 or TileOffsets 324) of every strip or tile, as LONGs or SHORTs. */
function blockOffsets(file: Uint8Array, tag: 273 | 324): { values: number[]; set(index: number, value: number): void } {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const little = file[0] === 0x49;
  const { at, count, size } = tagValues(file, tag);
  const read = (i: number) => (size === 2 ? view.getUint16(at + i * 2, little) : view.getUint32(at + i * 4, little));
  return {
    values: Array.from({ length: count }, (_, i) => read(i)),
    set: (i, value) =>
      size === 2 ? view.setUint16(at + i * 2, value, little) : view.setUint32(at + i * 4, value, little),
  };
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
  // Tiled CMYK (64×64 tiles: partial ones at the right and bottom): 8-bit through libtiff's converter,
  // 16-bit or with alpha through the decoder's own, a row of tiles at a time.
  {
    name: 'CMYK, tiles 64×64',
    source: 'rgb.png',
    args: ['-colorspace', 'cmyk', '-compress', 'lzw', '-define', 'tiff:tile-geometry=64x64'],
    tolerance: 1,
  },
  {
    name: 'CMYK, 16-bit, tiles 64×64',
    source: 'rgb.png',
    args: ['-colorspace', 'cmyk', '-depth', '16', '-compress', 'lzw', '-define', 'tiff:tile-geometry=64x64'],
    tolerance: 1,
  },
  {
    name: 'CMYK with alpha, tiles 64×64',
    source: 'rgba.png',
    args: ['-colorspace', 'cmyk', '-compress', 'lzw', '-define', 'tiff:tile-geometry=64x64'],
    tolerance: 1,
  },
  {
    name: 'CMYK with alpha, 16-bit, tiles 64×64, Deflate',
    source: 'rgba.png',
    args: ['-colorspace', 'cmyk', '-depth', '16', '-compress', 'zip', '-define', 'tiff:tile-geometry=64x64'],
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

  // 1000×600 RGB: one strip holds the whole image (as many scanners write), or 256×256 tiles; 16-bit CMYK
  // in 64×64 tiles (the decoder's own converter): whole rows of tiles, ~256 KB of RGBA (two rows of tiles).
  for (const { layout, args, bandRows, tolerance } of [
    { layout: 'one strip', args: ['-define', 'tiff:rows-per-strip=600'], bandRows: 65, tolerance: 0 },
    { layout: 'tiles', args: ['-define', 'tiff:tile-geometry=256x256'], bandRows: 256, tolerance: 0 },
    {
      layout: '16-bit CMYK tiles',
      args: ['-colorspace', 'cmyk', '-depth', '16', '-define', 'tiff:tile-geometry=64x64'],
      bandRows: 128,
      tolerance: 1,
    },
  ]) {
    it(`${layout}: rows arrive in bands of ${bandRows}, ImageMagick's pixels`, async () => {
      const big = join(folder, 'big.png');
      await sharp(naturalPixels(1000, 600, { seed: 3 }).data, { raw: { width: 1000, height: 600, channels: 3 } })
        .png()
        .toFile(big);
      const file = tiff('big.png', ['-compress', 'lzw', '-define', 'tiff:predictor=2', ...args]);
      const facts = probeTiff(file).info;
      const sink = rasterSink();
      const bands: number[] = [];
      await tiffDecoder({
        bytes: file,
        facts,
        cover: facts,
        maxInputPixels: DEFAULT_MAX_INPUT_PIXELS,
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
      expect(meanDifference(sink.raster().data, magickRgba(file))).toBeLessThanOrEqual(tolerance);
    });
  }

  // Separate planes (PlanarConfiguration 2, Photoshop's "per channel" order): ImageMagick 6 writes CMYK
  // contiguous only, so test/fixtures/tiff-planes.ts lays out the samples ImageMagick exports plane by plane
  // (tiffcp re-strips them with LZW). The oracle is ImageMagick's reading of the contiguous TIFF that holds
  // the same samples, which its reading of the separate file must match too.
  const contiguous = new Map<string, { samples: Uint8Array; expected: Uint8Array }>();
  /** The samples of a contiguous CMYK TIFF ImageMagick writes, and its reading of that file (made once). */
  const contiguousCmyk = (bits: 8 | 16, alpha: boolean) => {
    const key = `${bits}${alpha}`;
    let made = contiguous.get(key);
    if (!made) {
      const contig = tiff(alpha ? 'rgba.png' : 'rgb.png', ['-colorspace', 'cmyk', '-depth', String(bits)]);
      made = { samples: cmykSamples(contig, bits, alpha), expected: magickRgba(contig) };
      contiguous.set(key, made);
    }
    return made;
  };
  for (const bits of [8, 16] as const) {
    for (const alpha of [false, true]) {
      for (const { layout, tile, deflate, restrip, described } of [
        { layout: 'one strip a plane', described: 'Rows/Strip: 100' },
        { layout: 'strips of 16 rows, LZW', restrip: ['-r', '16', '-c', 'lzw'], described: 'Rows/Strip: 16' },
        { layout: 'tiles 64×64', tile: 64, described: 'Tile Width: 64 Tile Length: 64' },
        { layout: 'tiles 64×64, Deflate', tile: 64, deflate: true, described: 'AdobeDeflate' },
      ]) {
        it(`CMYK${alpha ? ' with alpha' : ''}, ${bits}-bit, separate planes, ${layout}: ImageMagick's pixels`, async () => {
          const { samples, expected } = contiguousCmyk(bits, alpha);
          const planes = separatePlanesTiff({
            width: 150,
            height: 100,
            bits,
            samples: alpha ? 5 : 4,
            data: samples,
            ...(alpha ? { extra: 2 } : {}),
            ...(tile ? { tile } : {}),
            deflate: deflate === true,
          });
          const file = restrip ? tiffcp(planes, restrip) : planes;
          const info = tiffinfo(file);
          expect(info).toContain('Planar Configuration: separate image planes');
          expect(info).toContain(described);
          expect(magickRgba(file)).toEqual(expected);
          expect(meanDifference((await decodeTiff(file)).data, expected)).toBeLessThanOrEqual(1);
        });
      }
    }
  }

  it('refuses tiled and separate-plane CMYK whose tiles or strips are cut or damaged, with a typed error', async () => {
    const code = (file: Uint8Array) =>
      process(file).then(
        () => 'decoded',
        (error: unknown) => (isMediaError(error) ? error.code : error),
      );
    const tiled = tiff('rgb.png', [
      ...['-colorspace', 'cmyk', '-depth', '16', '-compress', 'zip', '-define', 'tiff:tile-geometry=64x64'],
    ]);
    const contig = tiff('rgba.png', ['-colorspace', 'cmyk', '-depth', '16']);
    const planes = separatePlanesTiff({
      width: 150,
      height: 100,
      bits: 16,
      samples: 5,
      data: cmykSamples(contig, 16, true),
      extra: 2,
    });
    const tiledPlanes = separatePlanesTiff({
      width: 150,
      height: 100,
      bits: 16,
      samples: 5,
      data: cmykSamples(contig, 16, true),
      extra: 2,
      tile: 64,
      deflate: true,
    });
    // The directory comes first in the planes files: a cut leaves it whole and the last planes short.
    for (const file of [planes, tiledPlanes]) {
      for (const length of [40, Math.floor(file.length / 2), file.length - 200]) {
        expect(await code(file.subarray(0, length)), `planes cut at ${length}`).toBe('E_CORRUPT');
      }
    }
    for (const [name, file] of [
      ['tiled', tiled],
      ['tiled planes', tiledPlanes],
    ] as const) {
      // ImageMagick writes the directory last, so a cut takes it (E_CORRUPT) before any tile: cut a tile
      // instead (the last one starts a few bytes before the end of the file), or make the first one's Deflate
      // data noise.
      for (const length of [Math.floor(file.length / 2), file.length - 200]) {
        expect(await code(file.subarray(0, length)), `${name} cut at ${length}`).toBe('E_CORRUPT');
      }
      const short = file.slice();
      const offsets = blockOffsets(short, 324);
      offsets.set(offsets.values.length - 1, short.length - 8);
      expect(await code(short), `${name}, last tile cut`).toBe('E_CORRUPT');
      const noisy = file.slice();
      const first = blockOffsets(noisy, 324).values[0]!;
      for (let i = 2; i < 200; i++) noisy[first + i] = (i * 151 + 7) & 0xff;
      expect(await code(noisy), `${name}, first tile damaged`).toBe('E_CORRUPT');
    }
  });

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
        // A cut may leave a readable header and damaged pixels: E_CORRUPT either way, never a crash.
        await failsWith(process(file.subarray(0, length)), MediaError, 'E_CORRUPT');
      }
    }
  });

  it('says so (W_REPAIRED) when libjpeg fills in damaged JPEG data inside a TIFF, as tiffinfo -D warns', async () => {
    const file = tiffcp(tiff('rgb.png', []), ['-c', 'jpeg', '-r', '100']); // one strip
    // An end-of-image marker inside the strip's entropy-coded data: libjpeg stops there and fills the rest.
    const scan = Buffer.from(file).indexOf(Buffer.from([0xff, 0xda]));
    expect(scan).toBeGreaterThan(0);
    const damaged = file.slice();
    damaged.set([0xff, 0xd9], scan + 400);
    const path = join(folder, 'damaged-jpeg.tif');
    writeFileSync(path, damaged);
    const oracle = spawnSync('/usr/bin/tiffinfo', ['-D', path], { encoding: 'utf8' });
    expect(oracle.stderr).toContain('Corrupt JPEG data');
    const result = await process(damaged);
    expect(result.warnings).toEqual([
      { code: 'W_REPAIRED', message: expect.stringContaining('libjpeg: Corrupt JPEG data') },
    ]);
    expect((await process(file)).warnings).toEqual([]);
  });

  it('names the compression it does not read (ZSTD, LZMA, WebP inside a TIFF) in an E_UNSUPPORTED', async () => {
    for (const [compression, name] of [
      ['zstd', 'ZSTD compression, code 50000'],
      ['lzma', 'LZMA compression, code 34925'],
      ['webp', 'WEBP compression, code 50001'],
    ]) {
      const error = await failsWith(process(tiff('rgb.png', ['-compress', compression!])), MediaError, 'E_UNSUPPORTED');
      expect(error.message).toContain(name!);
    }
  });

  it('refuses CMYK it cannot convert (floating-point, 4-bit) with a typed error saying which', async () => {
    for (const [args, described] of [
      [['-depth', '32', '-define', 'quantum:format=floating-point'], '4 floating-point 32-bit samples'],
      [['-depth', '4'], '4 unsigned 4-bit samples'],
    ] as const) {
      const error = await failsWith(
        process(tiff('rgb.png', ['-colorspace', 'cmyk', ...args])),
        MediaError,
        'E_UNSUPPORTED',
      );
      expect(error.message).toContain(`separated (CMYK) TIFF with ${described}`);
      expect(error.message).toContain('Convert it to PNG or JPEG');
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
    await failsWith(process(file), MediaError, 'E_TOO_MANY_PIXELS');
  });
});
