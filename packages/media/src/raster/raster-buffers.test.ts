import { describe, expect, it } from 'vitest';
import { rasterBuffer, releaseRasterBuffer } from './raster-buffers.js';

describe('raster buffers reused between jobs', () => {
  it('hands a given-back buffer out again, zeroed and exactly as long as asked, up to twice the size', () => {
    const first = rasterBuffer(1000);
    first.fill(7);
    releaseRasterBuffer(first);
    const second = rasterBuffer(600);
    expect(second.buffer).toBe(first.buffer);
    expect(second.byteLength).toBe(600);
    expect(second.every((byte) => byte === 0)).toBe(true);
    releaseRasterBuffer(second);
    // Over twice the size it would waste: a new buffer, and the idle one waits for a raster it suits.
    expect(rasterBuffer(400).buffer).not.toBe(first.buffer);
    expect(rasterBuffer(2000).buffer).not.toBe(first.buffer);
    expect(rasterBuffer(900).buffer).toBe(first.buffer);
  });

  it('leaves alone what it did not lend, and takes a buffer back once', () => {
    const foreign = new Uint8Array(500);
    releaseRasterBuffer(foreign);
    expect(rasterBuffer(500).buffer).not.toBe(foreign.buffer);
    const lent = rasterBuffer(300);
    releaseRasterBuffer(lent);
    releaseRasterBuffer(lent);
    const a = rasterBuffer(300);
    const b = rasterBuffer(300);
    expect(a.buffer).toBe(lent.buffer);
    expect(b.buffer).not.toBe(lent.buffer);
  });

  it("keeps the largest buffers: a small raster given back does not push out a photo's", () => {
    const photo = rasterBuffer(12_000);
    const other = rasterBuffer(10_000);
    const icon = rasterBuffer(100);
    releaseRasterBuffer(photo);
    releaseRasterBuffer(other);
    releaseRasterBuffer(icon);
    expect(rasterBuffer(11_000).buffer).toBe(photo.buffer);
    expect(rasterBuffer(9_000).buffer).toBe(other.buffer);
    expect(rasterBuffer(100).buffer).not.toBe(icon.buffer);
  });
});
