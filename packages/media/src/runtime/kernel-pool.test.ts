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
import { dropPooledMemories, pooledMemories } from './memory-pool.js';
import * as make from '../../../../test/fixtures/make.js';

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('kernel instances reused between calls', () => {
  it('give the same bytes as fresh ones and start no new instance on a repeat; JPEG runs over the memory pool instead', async () => {
    const photo = await make.photoJpeg({ width: 1600, height: 1200 });
    const screenshot = await make.screenshotPng({ width: 1400, height: 900 });
    const options = { maxEdge: 700 };
    dropIdleInstances();
    dropPooledMemories();
    const fresh = [sha((await fit(photo, options)).data), sha((await fit(screenshot, options)).data)];
    expect(idleInstances()).toMatchObject({ png: 1, resize: 1 });
    expect(idleInstances()['jpeg']).toBeUndefined(); // jpeg.wasm imports its memory (memory-pool.ts)
    const pooled = pooledMemories().free;
    expect(pooled).toBeGreaterThan(0);
    const ownMemory: unknown[] = [];
    const instantiate = WebAssembly.instantiate;
    const spy = vi.spyOn(WebAssembly, 'instantiate').mockImplementation((async (...args: unknown[]) => {
      if (!(args[1] as { env?: { memory?: unknown } } | undefined)?.env?.memory) ownMemory.push(args[0]);
      return (instantiate as (...a: unknown[]) => Promise<WebAssembly.Instance>)(...args);
    }) as typeof WebAssembly.instantiate);
    try {
      const again = [sha((await fit(photo, options)).data), sha((await fit(screenshot, options)).data)];
      expect(again).toEqual(fresh);
      expect(ownMemory).toEqual([]); // every kernel with its own memory came from the pool of instances
      expect(pooledMemories()).toMatchObject({ free: pooled, inUse: 0 }); // and the JPEG ran over kept memories
      // A decode that fails inside libjpeg gives its memory back too: the next decodes the same, over it.
      await expect(decodeJpegScaled(photo.slice(0, 2000).fill(0, 200, 1500))).rejects.toMatchObject({
        code: 'E_CORRUPT',
      });
      expect(pooledMemories()).toMatchObject({ free: pooled, inUse: 0 });
      expect(sha((await fit(photo, options)).data)).toBe(fresh[0]);
      expect(ownMemory).toEqual([]);
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
