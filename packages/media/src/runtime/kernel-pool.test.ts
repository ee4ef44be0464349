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
