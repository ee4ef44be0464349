import { describe, expect, it } from 'vitest';
import { idleInstances, keepForReuse, MAX_KEPT_INSTANCE_BYTES, rememberStartedImage } from './kernel-pool.js';

describe('kernel instances reused between calls (PDFium: pdfium.test.ts)', () => {
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
