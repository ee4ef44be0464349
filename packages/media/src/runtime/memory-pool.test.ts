import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { process as fit } from '../entries/node.js';
import { decodeJpegScaled } from '../formats/jpeg/kernel.js';
import { decodePngRgba } from '../formats/png/kernel.js';
import { decodeWebpStill } from '../formats/webp/decoder-kernel.js';
import { decodeTiffRows } from '../formats/tiff/kernel.js';
import { idleInstances } from './kernel-pool.js';
import { idleRasterBuffers } from '../raster/raster-buffers.js';
import { instantiateKernel, type KernelExports } from './kernel-instance.js';
import {
  dropPooledMemories,
  MAX_FREE_MEMORIES,
  MAX_KEPT_MEMORY_BYTES,
  NEW_MEMORY_BYTES,
  pooledMemories,
  withPooledMemory,
} from './memory-pool.js';
import * as make from '../../../../test/fixtures/make.js';
import { avifEnc } from '../../../../test/fixtures/avif-tools.js';
import { naturalPixels } from '../../../../test/fixtures/pixels.js';

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** The pool's counts of memories (free, in use, ever made and dropped), without their bytes. */
function counts(): { free: number; inUse: number; made: number; dropped: number } {
  const { free, inUse, made, dropped } = pooledMemories();
  return { free, inUse, made, dropped };
}

/** Records every distinct memory handed to an instantiation as `env.memory`. */
function watchImportedMemories(): { memories: WebAssembly.Memory[]; restore(): void } {
  const memories: WebAssembly.Memory[] = [];
  const instantiate = WebAssembly.instantiate;
  const spy = vi.spyOn(WebAssembly, 'instantiate').mockImplementation((async (...args: unknown[]) => {
    const memory = (args[1] as { env?: { memory?: unknown } } | undefined)?.env?.memory;
    if (memory instanceof WebAssembly.Memory && !memories.includes(memory)) memories.push(memory);
    return (instantiate as (...a: unknown[]) => Promise<WebAssembly.Instance>)(...args);
  }) as typeof WebAssembly.instantiate);
  return { memories, restore: () => spy.mockRestore() };
}

/** A module that only imports a memory of at least `pages` pages (64 KiB each; `pages` under 128). */
function memoryImporter(pages: number): WebAssembly.Module {
  const env = [3, 101, 110, 118];
  const memory = [6, 109, 101, 109, 111, 114, 121];
  const section = [1, ...env, ...memory, 2, 0, pages];
  return new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 2, section.length, ...section]));
}

afterEach(() => dropPooledMemories());

describe('the pool of memories that modules importing theirs share', () => {
  it('serves AVIF and TIFF one after another from one memory: the same bytes each round, no new memory, no growth', async () => {
    const pixels = naturalPixels(900, 600, { seed: 6 });
    const avif = await avifEnc(pixels);
    const tiff = await make.toBytes(make.fromPixels(pixels).tiff({ compression: 'lzw' }));
    const options = { maxEdge: 400 };
    dropPooledMemories();
    const watch = watchImportedMemories();
    try {
      const first = [sha((await fit(avif, options)).data), sha((await fit(tiff, options)).data)];
      expect(watch.memories).toHaveLength(1); // the TIFF ran over the memory the AVIF gave back
      const size = watch.memories[0]!.buffer.byteLength;
      expect(size).toBeGreaterThan(NEW_MEMORY_BYTES); // dav1d grew it
      for (let round = 0; round < 3; round++)
        expect([sha((await fit(tiff, options)).data), sha((await fit(avif, options)).data)]).toEqual([
          first[1],
          first[0],
        ]);
      expect(watch.memories).toHaveLength(1);
      expect(watch.memories[0]!.buffer.byteLength).toBe(size);
      expect(pooledMemories()).toMatchObject({ free: 1, inUse: 0, freeBytes: size });
    } finally {
      watch.restore();
    }
  });

  it('takes as many memories as calls run at once, which later calls of any such module reuse', async () => {
    const tiff = await make.toBytes(make.fromPixels(naturalPixels(600, 400, { seed: 2 })).tiff({ compression: 'lzw' }));
    dropPooledMemories();
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const overlapping = [0, 1].map(() =>
      withPooledMemory(
        'any',
        async (memory) => memory,
        (memory) => held.then(() => memory),
      ),
    );
    release();
    const [one, two] = await Promise.all(overlapping);
    expect(one).not.toBe(two);
    expect(pooledMemories()).toMatchObject({ free: 2, inUse: 0 });
    const watch = watchImportedMemories();
    try {
      await fit(tiff, { maxEdge: 300 });
      expect(watch.memories).toHaveLength(1);
      expect([one, two]).toContain(watch.memories[0]);
      expect(pooledMemories()).toMatchObject({ free: 2, inUse: 0 });
    } finally {
      watch.restore();
    }
  });

  it('gives back, zeroed, the memory of a call that failed, and the next call over it decodes as a fresh one', async () => {
    const tiff = await make.toBytes(make.fromPixels(naturalPixels(300, 200, { seed: 4 })).tiff({ compression: 'lzw' }));
    const damaged = tiff.slice(0, 400);
    dropPooledMemories();
    const before = sha((await fit(tiff, { maxEdge: 200 })).data);
    await expect(decodeTiffRows(damaged, { start: () => undefined, write: () => undefined })).rejects.toBeDefined();
    expect(pooledMemories()).toMatchObject({ free: 1, inUse: 0 });
    expect(sha((await fit(tiff, { maxEdge: 200 })).data)).toBe(before);
  });

  it("runs JPEG, PNG and the WebP decoder over it: a repeat makes no memory, the same bytes, no instance of its own but resize's", async () => {
    const photo = await make.photoJpeg({ width: 1600, height: 1200 });
    const screenshot = await make.screenshotPng({ width: 1400, height: 900 });
    const webp = await make.webp({ width: 1200, height: 800, alpha: true });
    const options = { maxEdge: 700 };
    dropPooledMemories();
    const fresh = [sha((await fit(photo, options)).data), sha((await fit(screenshot, options)).data)];
    fresh.push(sha((await fit(webp, options)).data));
    // A second round: the small calls (the encodes at 700 px) now known to fit a new memory take one of
    // their own instead of the one the JPEG decoder grew.
    await fit(photo, options);
    await fit(screenshot, options);
    await fit(webp, options);
    const kept = counts();
    expect(kept).toMatchObject({ inUse: 0, dropped: 0 });
    expect(kept.free).toBe(kept.made); // every memory made was given back
    const ownMemory: WebAssembly.Module[] = [];
    const instantiate = WebAssembly.instantiate;
    const spy = vi.spyOn(WebAssembly, 'instantiate').mockImplementation((async (...args: unknown[]) => {
      const memory = (args[1] as { env?: { memory?: unknown } } | undefined)?.env?.memory;
      if (!memory && args[0] instanceof WebAssembly.Module) ownMemory.push(args[0]);
      return (instantiate as (...a: unknown[]) => Promise<WebAssembly.Instance>)(...args);
    }) as typeof WebAssembly.instantiate);
    try {
      for (let round = 0; round < 2; round++) {
        const again = [sha((await fit(photo, options)).data), sha((await fit(screenshot, options)).data)];
        again.push(sha((await fit(webp, options)).data));
        expect(again).toEqual(fresh);
      }
      expect(ownMemory).toEqual([]); // the resize kernel (its own memory) came from its kept instances
      expect(counts()).toEqual(kept); // and the codecs ran over the kept memories
      expect(Object.keys(idleInstances())).toEqual(['resize']);
    } finally {
      spy.mockRestore();
    }
  });

  it('gets back the memory of a PNG, WebP or JPEG decode that failed', async () => {
    const screenshot = await make.screenshotPng({ width: 900, height: 600 });
    const webp = await make.webp({ width: 900, height: 600 });
    const photo = await make.photoJpeg({ width: 900, height: 600 });
    const options = { maxEdge: 300 };
    dropPooledMemories();
    const fresh = [sha((await fit(screenshot, options)).data), sha((await fit(webp, options)).data)];
    const kept = counts();
    // A PNG cut short inside its image data (libpng's error through env.fail) and one with a bad CRC.
    const cut = screenshot.slice(0, Math.floor(screenshot.byteLength / 2));
    await expect(decodePngRgba(cut)).rejects.toMatchObject({ code: 'E_CORRUPT' });
    const badCrc = screenshot.slice();
    badCrc[40] = (badCrc[40] ?? 0) ^ 0xff;
    await expect(decodePngRgba(badCrc)).rejects.toMatchObject({ code: 'E_CORRUPT' });
    // A WebP cut short (libwebp's status: not enough data) and one whose VP8 data is garbled.
    await expect(decodeWebpStill(webp.slice(0, Math.floor(webp.byteLength / 2)))).rejects.toMatchObject({
      code: 'E_CORRUPT',
    });
    const garbled = webp.slice();
    garbled.fill(0xff, 40, Math.min(garbled.byteLength, 400));
    await expect(decodeWebpStill(garbled)).rejects.toMatchObject({ code: 'E_CORRUPT' });
    await expect(decodeJpegScaled(photo.slice(0, 2000).fill(0, 200, 1500))).rejects.toMatchObject({
      code: 'E_CORRUPT',
    });
    await expect(fit(garbled, options)).rejects.toMatchObject({ code: 'E_CORRUPT' });
    expect(counts()).toEqual(kept); // none made, none dropped, none still in use
    expect([sha((await fit(screenshot, options)).data), sha((await fit(webp, options)).data)]).toEqual(fresh);
    expect(counts()).toEqual(kept);
  });

  it('gets back what a TIFF decode that fails midway took: its memory, the raster buffer, the resize instance', async () => {
    // The load suite's damaged file: 0xFF over 5 % of the bytes in the middle, so a strip fails after the
    // rows above it went into the raster. Each such request dropped that raster (12 MB at 2000 px).
    const tiff = await make.toBytes(
      make.fromPixels(naturalPixels(900, 600, { seed: 9 })).tiff({ compression: 'lzw', tile: false }),
    );
    const damaged = tiff.slice();
    damaged.fill(0xff, Math.floor(damaged.length * 0.5), Math.floor(damaged.length * 0.55));
    const options = { maxEdge: 450 };
    dropPooledMemories();
    const left = () => ({ memories: counts(), rasters: idleRasterBuffers(), resize: idleInstances().resize });
    await fit(tiff, options); // what a good fit leaves is what the failed ones must leave
    const kept = left();
    expect(kept.rasters.idle).toContain(450 * 300 * 4);
    for (let call = 0; call < 3; call++)
      await expect(fit(damaged, options)).rejects.toMatchObject({ code: 'E_CORRUPT' });
    expect(left()).toEqual(kept);
  });

  it('grows a memory smaller than a module imports and tries again; drops one grown past MAX_KEPT_MEMORY_BYTES', async () => {
    const needs = memoryImporter(100); // 6.25 MiB, more than a new memory's 2 MiB
    const seen: number[] = [];
    await withPooledMemory(
      'importer',
      (memory) => WebAssembly.instantiate(needs, { env: { memory } }),
      (_instance, memory) => {
        seen.push(memory.buffer.byteLength);
        new Uint8Array(memory.buffer).fill(7);
      },
    );
    expect(seen[0]).toBeGreaterThanOrEqual(100 * 65536);
    const kept = pooledMemories();
    expect(kept).toMatchObject({ free: 1, inUse: 0 });
    await withPooledMemory(
      'other',
      async (memory) => memory,
      (memory) => {
        expect(new Uint8Array(memory.buffer).every((byte) => byte === 0)).toBe(true); // zeroed when given back
        memory.grow(Math.ceil((MAX_KEPT_MEMORY_BYTES - memory.buffer.byteLength) / 65536) + 1);
      },
    );
    expect(pooledMemories()).toMatchObject({ free: 0, inUse: 0, freeBytes: 0 });
  });

  it('gives an instance kept across calls (instantiateKernel) a memory of its own, not one of the pool', async () => {
    dropPooledMemories();
    const kernel = await instantiateKernel<KernelExports>('jpeg', []);
    expect(kernel.memory).toBeInstanceOf(WebAssembly.Memory);
    expect(kernel.alloc(1000)).toBeGreaterThan(0);
    expect(pooledMemories()).toMatchObject({ free: 0, inUse: 0, freeBytes: 0 });
  });

  it(`keeps at most ${MAX_FREE_MEMORIES} free memories`, async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const calls = Array.from({ length: MAX_FREE_MEMORIES + 2 }, () =>
      withPooledMemory(
        'any',
        async (memory) => memory,
        () => held,
      ),
    );
    await Promise.resolve();
    expect(pooledMemories().inUse).toBe(MAX_FREE_MEMORIES + 2);
    release();
    await Promise.all(calls);
    expect(pooledMemories()).toMatchObject({
      free: MAX_FREE_MEMORIES,
      inUse: 0,
      made: MAX_FREE_MEMORIES + 2,
      dropped: 2,
    });
  });
});
