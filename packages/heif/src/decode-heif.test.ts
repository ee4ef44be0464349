// HEIC decoding, checked against Debian's heif-convert (libheif applying every transformation itself) on
// files made by heif-enc and by the test HEIF writer (grids, irot/imir, clap, which heif-enc cannot write).
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import '@glimpse/heif';
import { isMediaError, MediaError, probe, process, type ProcessOptions } from '@glimpse/media';
import sharp from 'sharp';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { dropPooledMemories, pooledMemories, withPooledMemory } from '../../media/src/runtime/memory-pool.js';
import { idleRasterBuffers } from '../../media/src/raster/raster-buffers.js';
import { idleInstances } from '../../media/src/runtime/kernel-pool.js';
import { codedImageOf, gridHeif, heifConvert, heifEnc, writeHeif } from '../../../test/fixtures/heif-writer.js';
import { naturalPixels } from '../../../test/fixtures/pixels.js';
import { decodeHeif } from './decode-heif.js';
import { failsWith } from '../../../test/support/typed-errors.js';

async function rgbaOf(bytes: Uint8Array): Promise<{ data: Uint8Array; width: number; height: number }> {
  const { data, info } = await sharp(bytes).ensureAlpha().raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height };
}

/** Mean absolute difference per sample, over two images of the same size. */
function meanDifference(a: Uint8Array, b: Uint8Array): number {
  expect(a.length).toBe(b.length);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs((a[i] ?? 0) - (b[i] ?? 0));
  return sum / a.length;
}

async function errorCode(input: Uint8Array, options: ProcessOptions = {}): Promise<string | undefined> {
  try {
    await process(input, options);
  } catch (error) {
    return isMediaError(error) ? error.code : String(error);
  }
  return undefined;
}

const photo = naturalPixels(200, 130);
let single: Uint8Array;
let grid: Uint8Array;

beforeAll(async () => {
  single = await heifEnc(naturalPixels(96, 64), { quality: 80 });
  grid = await gridHeif(photo, 64, { quality: 80 });
}, 120_000);

describe('HEIC through process()', () => {
  it('converts a single-image HEIC to JPEG with the pixels libheif gives', async () => {
    const result = await process(single, { maxBytes: 10_000_000 });
    expect(result).toMatchObject({
      mediaType: 'image/jpeg',
      width: 96,
      height: 64,
      reencoded: true,
      steps: ['converted'],
    });
    const expected = await heifConvert(single);
    expect(meanDifference((await rgbaOf(result.data)).data, expected.data)).toBeLessThan(2.5);
  });

  it('assembles a grid tile by tile, cutting the overhanging tiles at the output size', async () => {
    const info = await probe(grid);
    expect(info).toMatchObject({ mediaType: 'image/heic', width: 200, height: 130, orientation: 1 });
    const result = await process(grid, { maxBytes: 10_000_000 });
    expect({ width: result.width, height: result.height }).toEqual({ width: 200, height: 130 });
    const expected = await heifConvert(grid);
    expect({ width: expected.width, height: expected.height }).toEqual({ width: 200, height: 130 });
    expect(meanDifference((await rgbaOf(result.data)).data, expected.data)).toBeLessThan(2.5);
  });

  it('turns irot/imir files upright exactly as libheif shows them', async () => {
    const tiles = [codedImageOf(single)];
    for (const [rotate, mirror] of [
      [1, undefined],
      [2, undefined],
      [3, undefined],
      [0, 0],
      [0, 1],
      [1, 0],
      [3, 1],
    ] as const) {
      const file = writeHeif({ tiles, rotate, ...(mirror !== undefined && { mirror }) });
      const result = await process(file, { maxBytes: 10_000_000 });
      const expected = await heifConvert(file);
      expect({ width: result.width, height: result.height }).toEqual({
        width: expected.width,
        height: expected.height,
      });
      expect(result.steps).toContain('oriented');
      expect(
        meanDifference((await rgbaOf(result.data)).data, expected.data),
        `irot ${rotate} imir ${mirror}`,
      ).toBeLessThan(2.5);
    }
  });

  it('crops to the clean aperture', async () => {
    const file = writeHeif({ tiles: [codedImageOf(single)], clap: { width: 80, height: 50 } });
    const result = await process(file, { maxBytes: 10_000_000 });
    const expected = await heifConvert(file);
    expect({ width: result.width, height: result.height }).toEqual({ width: 80, height: 50 });
    expect(meanDifference((await rgbaOf(result.data)).data, expected.data)).toBeLessThan(2.5);
  });

  it('brings 10-bit HEIC down to 8 bits', async () => {
    const deep = await heifEnc(naturalPixels(64, 48), { sixteenBit: true, args: ['-b', '10'] });
    expect(await probe(deep)).toMatchObject({ bitDepth: 10 });
    const result = await process(deep, { maxBytes: 10_000_000 });
    const expected = await heifConvert(deep);
    expect(meanDifference((await rgbaOf(result.data)).data, expected.data)).toBeLessThan(2.5);
  });

  it('keeps alpha: PNG out, the alpha image applied', async () => {
    const withAlpha = await heifEnc(naturalPixels(64, 48, { channels: 4 }), { quality: 90 });
    const result = await process(withAlpha);
    expect(result.mediaType).toBe('image/png');
    const expected = await heifConvert(withAlpha);
    const decoded = await rgbaOf(result.data);
    const alphaOf = (rgba: Uint8Array) => rgba.filter((_, index) => index % 4 === 3);
    expect(meanDifference(alphaOf(decoded.data), alphaOf(expected.data))).toBeLessThan(0.5);
  });

  it('fits a grid of phone-sized tiles within the limits', async () => {
    const big = await gridHeif(naturalPixels(1300, 700), 512, { quality: 50 });
    const result = await process(big, { maxEdge: 1000 });
    expect({ mediaType: result.mediaType, width: result.width, height: result.height }).toEqual({
      mediaType: 'image/jpeg',
      width: 1000,
      height: 538,
    });
    expect(result.steps).toEqual(['resized', 'converted']);
  }, 180_000);

  it('the gemini preset passes a HEIC within its limits through, and converts one over them', async () => {
    const kept = await process(single, { preset: 'gemini' });
    expect(kept).toMatchObject({ mediaType: 'image/heic', reencoded: false });
    expect(kept.data).toBe(single);
    const fitted = await process(single, { preset: 'gemini', maxEdge: 48 });
    expect(fitted).toMatchObject({ mediaType: 'image/jpeg', width: 48, height: 32, steps: ['resized', 'converted'] });
  });

  it('refuses truncated and damaged files with E_CORRUPT', async () => {
    for (const length of [30, 300, grid.length - 500, grid.length - 1])
      expect(await errorCode(grid.subarray(0, length)), `cut at ${length}`).toBe('E_CORRUPT');
    // Tile data overwritten: libde265 reports a damaged stream or decodes garbage, never crashes.
    const damaged = grid.slice();
    for (let i = damaged.length - 3000; i < damaged.length; i += 7) damaged[i] = 0xff;
    const code = await errorCode(damaged);
    expect(code === undefined || code === 'E_CORRUPT').toBe(true);
  });

  it('refuses an HEVC stream that codes a larger picture than its item declares, before allocating it', async () => {
    // The pixel budget is checked against ispe; libde265 would allocate whatever the stream's SPS says.
    const coded = codedImageOf(await heifEnc(naturalPixels(512, 384), { quality: 30 }));
    const ispe = new Uint8Array(20);
    ispe.set([0, 0, 0, 20, ...new TextEncoder().encode('ispe')]);
    new DataView(ispe.buffer).setUint32(12, 64);
    new DataView(ispe.buffer).setUint32(16, 48);
    const type = (box: Uint8Array) => new TextDecoder().decode(box.subarray(4, 8));
    const lying = {
      ...coded,
      width: 64,
      height: 48,
      properties: coded.properties.map((box) => (type(box) === 'ispe' ? ispe : box)),
    };
    for (const [file, width, height] of [
      [writeHeif({ tiles: [lying] }), 64, 48],
      [
        writeHeif({ tiles: [lying, lying, lying, lying], grid: { columns: 2, rows: 2, width: 128, height: 96 } }),
        128,
        96,
      ],
    ] as const) {
      expect(await probe(file)).toMatchObject({ width, height });
      const error = await failsWith(process(file, { maxInputPixels: 20_000 }), MediaError, 'E_CORRUPT');
      expect(String(error)).toMatch(/codes a 512×384 picture, larger than the 64×64/);
    }
  }, 60_000);

  it('refuses a picture whose decoding would pass maxMemory before libde265 allocates it (E_TOO_LARGE)', async () => {
    // 1000×800 takes about 3.5 MB past what the instance holds: its planes and libde265's metadata.
    const photo = await heifEnc(naturalPixels(1000, 800), { quality: 50 });
    const module = await WebAssembly.compile(await readFile(new URL('../wasm/heif.wasm', import.meta.url)));
    const decode = async (maxMemory: number) => {
      const rows: number[] = [];
      const request = {
        bytes: photo,
        info: await probe(photo),
        maxInputPixels: 100_000_000,
        sink: { start: () => undefined, write: (_pixels: Uint8Array, count: number) => rows.push(count) },
      };
      await decodeHeif(module, request as unknown as Parameters<typeof decodeHeif>[1], maxMemory);
      return rows.reduce((sum, count) => sum + count, 0);
    };
    const error = await failsWith(decode(2 * 2 ** 20), MediaError, 'E_TOO_LARGE');
    expect(String(error)).toMatch(/takes about \d+ MB of memory, over the 2 MB allowed/);
    expect(await decode(64 * 2 ** 20)).toBe(800);
  });

  it('checks maxMemory over a large pooled memory as over a new one: its free bytes are not counted as held', async () => {
    const photo = await heifEnc(naturalPixels(1000, 800), { quality: 50 });
    const module = await WebAssembly.compile(await readFile(new URL('../wasm/heif.wasm', import.meta.url)));
    const outcome = async (maxMemory: number) => {
      const request = {
        bytes: photo,
        info: await probe(photo),
        maxInputPixels: 100_000_000,
        sink: { start: () => undefined, write: () => undefined },
      };
      try {
        await decodeHeif(module, request as unknown as Parameters<typeof decodeHeif>[1], maxMemory);
        return 'fits';
      } catch (error) {
        return isMediaError(error) ? error.code : String(error);
      }
    };
    const limits = [3, 4, 5, 6, 7, 8, 64].map((mib) => mib * 2 ** 20);
    dropPooledMemories();
    const fresh: string[] = [];
    for (const limit of limits) {
      fresh.push(await outcome(limit));
      dropPooledMemories(); // each over a new memory
    }
    // The pool's one memory grown to 80 MiB (as a 12 MP AVIF leaves it), then the same limits over it.
    await withPooledMemory(
      'grow',
      async (memory) => memory,
      (memory) => void memory.grow(80 * 16 - 32),
    );
    const overLarge: string[] = [];
    for (const limit of limits) overLarge.push(await outcome(limit));
    expect(pooledMemories()).toMatchObject({ free: 1, inUse: 0, freeBytes: 80 * 2 ** 20 }); // every call ran over it
    expect(fresh).toContain('E_TOO_LARGE');
    expect(fresh.at(-1)).toBe('fits');
    expect(overLarge).toEqual(fresh);
  });

  it('gives back what a grid that fails midway took: its pooled memory, the raster buffer, the resize instance', async () => {
    // The load suite's damaged file: 0xFF over 5 % of the bytes in the middle, so a tile row fails after
    // the rows above it went into the raster. Each such request dropped that raster (12 MB at 2000 px).
    const photo = await gridHeif(naturalPixels(640, 384), 128, { quality: 50 });
    const damaged = photo.slice();
    damaged.fill(0xff, Math.floor(damaged.length * 0.5), Math.floor(damaged.length * 0.55));
    const options = { maxEdge: 400 };
    const left = () => {
      const { free, inUse, made, dropped } = pooledMemories();
      return { memories: { free, inUse, made, dropped }, rasters: idleRasterBuffers(), resize: idleInstances().resize };
    };
    await process(photo, options); // what a good fit leaves is what the failed ones must leave
    const kept = left();
    expect(kept.rasters.idle).toContain(400 * 240 * 4);
    for (let call = 0; call < 3; call++) expect(await errorCode(damaged, options)).toBe('E_CORRUPT');
    expect(left()).toEqual(kept);
  });

  it('reuses its pooled memory: the same rows again, no new memory, no memory growth, and the same maxMemory still fits', async () => {
    // Reset to its memory after start-up, libheif's allocator grew the memory by a picture per call (50 MB
    // at 12 MP); and decode.cc's limit check counted a reused memory's free bytes as held.
    const photo = await heifEnc(naturalPixels(1600, 1200), { quality: 50 });
    const module = await WebAssembly.compile(await readFile(new URL('../wasm/heif.wasm', import.meta.url)));
    const memories: WebAssembly.Memory[] = [];
    const instantiate = WebAssembly.instantiate;
    const spy = vi.spyOn(WebAssembly, 'instantiate').mockImplementation((async (...args: unknown[]) => {
      const memory = (args[1] as { env?: { memory?: unknown } } | undefined)?.env?.memory;
      if (memory instanceof WebAssembly.Memory && !memories.includes(memory)) memories.push(memory);
      return (instantiate as (...a: unknown[]) => Promise<WebAssembly.Instance>)(...args);
    }) as typeof WebAssembly.instantiate);
    try {
      dropPooledMemories();
      const decode = async (maxMemory?: number) => {
        const hash = createHash('sha256');
        const request = {
          bytes: photo,
          info: await probe(photo),
          maxInputPixels: 100_000_000,
          sink: { start: () => undefined, write: (pixels: Uint8Array) => hash.update(pixels) },
        };
        await decodeHeif(module, request as unknown as Parameters<typeof decodeHeif>[1], maxMemory);
        return hash.digest('hex');
      };
      const first = await decode();
      expect(memories).toHaveLength(1);
      const grown = memories[0]!.buffer.byteLength;
      for (let call = 0; call < 3; call++) expect(await decode(grown + 2 * 2 ** 20)).toBe(first);
      expect(memories).toHaveLength(1);
      expect(memories[0]!.buffer.byteLength).toBe(grown);
    } finally {
      spy.mockRestore();
    }
  });

  it('refuses a grid that declares too many pixels before decoding anything', async () => {
    const tiles = Array.from({ length: 4 }, () => codedImageOf(single));
    const bomb = writeHeif({ tiles, grid: { columns: 2, rows: 2, width: 150, height: 120 } });
    expect(await errorCode(bomb, { maxInputPixels: 10_000 })).toBe('E_TOO_MANY_PIXELS');
  });
});
