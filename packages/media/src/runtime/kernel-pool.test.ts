import { createHash } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { process as fit } from '../entries/node.js';
import { decodeJpegScaled } from '../formats/jpeg/kernel.js';
import {
  dropIdleInstances,
  idleInstances,
  keepForReuse,
  MAX_KEPT_INSTANCE_BYTES,
  rememberStartedImage,
} from './kernel-pool.js';
import * as make from '../../../../test/fixtures/make.js';
import { avifEnc } from '../../../../test/fixtures/avif-tools.js';
import { naturalPixels } from '../../../../test/fixtures/pixels.js';

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('kernel instances reused between calls', () => {
  it('give the same bytes as fresh ones, start no new instance on a repeat, and are dropped after a failure', async () => {
    const photo = await make.photoJpeg({ width: 1600, height: 1200 });
    const screenshot = await make.screenshotPng({ width: 1400, height: 900 });
    const options = { maxEdge: 700 };
    dropIdleInstances();
    const fresh = [sha((await fit(photo, options)).data), sha((await fit(screenshot, options)).data)];
    expect(idleInstances()).toMatchObject({ jpeg: 1, png: 1, resize: 1 });
    const instantiate = vi.spyOn(WebAssembly, 'instantiate');
    const again = [sha((await fit(photo, options)).data), sha((await fit(screenshot, options)).data)];
    expect(again).toEqual(fresh);
    expect(instantiate).not.toHaveBeenCalled(); // every kernel came from the pool
    // A decode that fails inside libjpeg drops its instance: the next starts fresh and decodes the same.
    await expect(decodeJpegScaled(photo.slice(0, 2000).fill(0, 200, 1500))).rejects.toMatchObject({
      code: 'E_CORRUPT',
    });
    expect(idleInstances()['jpeg']).toBe(0);
    expect(sha((await fit(photo, options)).data)).toBe(fresh[0]);
    expect(instantiate).toHaveBeenCalledTimes(1);
    instantiate.mockRestore();
  });

  it('AVIF and TIFF decoders are reused too: the same bytes, no new instance, memory as the first call left it', async () => {
    const pixels = naturalPixels(900, 600, { seed: 6 });
    const avif = await avifEnc(pixels);
    const tiff = await make.toBytes(make.fromPixels(pixels).tiff({ compression: 'lzw' }));
    const options = { maxEdge: 400 };
    dropIdleInstances();
    const memories: WebAssembly.Memory[] = [];
    const instantiate = WebAssembly.instantiate;
    const spy = vi.spyOn(WebAssembly, 'instantiate').mockImplementation((async (...args: unknown[]) => {
      const made = await (instantiate as (...a: unknown[]) => Promise<WebAssembly.Instance>)(...args);
      if (made.exports['memory'] instanceof WebAssembly.Memory) memories.push(made.exports['memory']);
      return made;
    }) as typeof WebAssembly.instantiate);
    try {
      const first = [sha((await fit(avif, options)).data), sha((await fit(tiff, options)).data)];
      expect(idleInstances()).toMatchObject({ avif: 1, tiff: 1 });
      const started = memories.length;
      const sizes = memories.map((memory) => memory.buffer.byteLength);
      for (let round = 0; round < 3; round++)
        expect([sha((await fit(avif, options)).data), sha((await fit(tiff, options)).data)]).toEqual(first);
      expect(memories).toHaveLength(started);
      expect(memories.map((memory) => memory.buffer.byteLength)).toEqual(sizes);
    } finally {
      spy.mockRestore();
    }
  });

  it('drops an instance whose memory grew past MAX_KEPT_INSTANCE_BYTES instead of holding it idle', () => {
    const pages = (bytes: number) => Math.ceil(bytes / 65_536);
    rememberStartedImage('pool-test', new WebAssembly.Memory({ initial: 1 }));
    const huge = new WebAssembly.Memory({ initial: pages(MAX_KEPT_INSTANCE_BYTES) + 1 });
    keepForReuse('pool-test', { name: 'huge' }, huge);
    expect(idleInstances()['pool-test']).toBe(0);
    const small = new WebAssembly.Memory({ initial: 4 });
    new Uint8Array(small.buffer).fill(9);
    keepForReuse('pool-test', { name: 'small' }, small);
    expect(idleInstances()['pool-test']).toBe(1);
    expect(new Uint8Array(small.buffer).every((byte) => byte === 0)).toBe(true); // reset: the image (zeros) and zeros after
  });
});
