import { crc32 as zlibCrc32 } from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { process as fit } from '@glimpse/media';
import * as make from '../../../../test/fixtures/make.js';
import { crc32 } from './crc32.js';
import { checkJpegIntegrity } from './jpeg.js';
import { checkPngIntegrity } from './png.js';
import { checkWebpIntegrity } from './webp.js';

/** Offset of the first chunk of `type` in a PNG. */
function chunkAt(png: Uint8Array, type: string): { offset: number; length: number } {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  for (let offset = 8; offset < png.length; ) {
    const length = view.getUint32(offset);
    if (new TextDecoder().decode(png.subarray(offset + 4, offset + 8)) === type) return { offset, length };
    offset += 12 + length;
  }
  throw new Error(`no ${type} chunk`);
}

/** A copy whose `type` chunk has a wrong CRC, as PngSuite's xcsn0g01 (IDAT) and xhdn0g08 (IHDR) have. */
function breakCrc(png: Uint8Array, type: string): Uint8Array {
  const copy = png.slice();
  const { offset, length } = chunkAt(copy, type);
  copy[offset + 8 + length + 3]! ^= 0x55;
  return copy;
}

/** pngcheck (Debian) is the strict oracle when installed: libpng's rules, every CRC. */
function pngcheckAccepts(png: Uint8Array): boolean | undefined {
  const file = join(mkdtempSync(join(tmpdir(), 'glimpse-integrity-')), 'file.png');
  writeFileSync(file, png);
  try {
    execFileSync('pngcheck', ['-q', file], { stdio: 'ignore' });
    return true;
  } catch (error) {
    return (error as { code?: string }).code === 'ENOENT' ? undefined : false;
  }
}

describe('crc32', () => {
  it('matches zlib on every length around the 8-byte stride', () => {
    const bytes = make.garbage(300);
    for (let length = 0; length < 300; length += 7)
      expect(crc32(bytes, 0, length)).toBe(zlibCrc32(bytes.subarray(0, length)));
    expect(crc32(bytes, 5, 290)).toBe(zlibCrc32(bytes.subarray(5, 290)));
  });
});

describe('passthrough integrity: PNG', () => {
  it('refuses a damaged critical chunk (bad IHDR or IDAT CRC, as PngSuite xhdn0g08/xcsn0g01) as E_CORRUPT, never passing it through', async () => {
    const png = await make.screenshotPng({ width: 200, height: 120 });
    for (const type of ['IHDR', 'IDAT']) {
      const broken = breakCrc(png, type);
      expect(checkPngIntegrity(broken)).toMatchObject({ fatal: true });
      expect(pngcheckAccepts(broken)).not.toBe(true);
      await expect(fit(broken)).rejects.toMatchObject({
        code: 'E_CORRUPT',
        message: expect.stringContaining(`${type} chunk`),
      });
      await expect(fit(broken, { provider: 'anthropic' })).rejects.toMatchObject({ code: 'E_CORRUPT' });
    }
  });

  it('re-encodes (does not pass through) a PNG whose ancillary chunk is damaged or that has bytes after IEND', async () => {
    const png = await make.screenshotPng({ width: 200, height: 120 });
    const withText = make.insertPngChunk(png, 'tEXt', new TextEncoder().encode('Comment\0hello'));
    expect((await fit(withText)).data).toBe(withText); // intact: passes through
    const trailing = new Uint8Array([...png, 1, 2, 3]);
    for (const damaged of [breakCrc(withText, 'tEXt'), trailing]) {
      expect(checkPngIntegrity(damaged)).toMatchObject({ fatal: false });
      const result = await fit(damaged);
      expect(result.reencoded).toBe(true);
      expect(result.warnings.map((w) => w.code)).toEqual(['W_REPAIRED']);
      expect(pngcheckAccepts(result.data)).not.toBe(false);
    }
  });

  it('accepts every PNG glimpse writes', async () => {
    const result = await fit(await make.screenshotPng({ width: 900, height: 600 }), { maxEdge: 300 });
    expect(checkPngIntegrity(result.data)).toBeUndefined();
  });
});

describe('passthrough integrity: JPEG', () => {
  it('accepts well-formed baseline and progressive JPEGs and passes them through', async () => {
    for (const progressive of [false, true]) {
      const jpeg = await make.photoJpeg({ progressive });
      expect(checkJpegIntegrity(jpeg)).toBeUndefined();
      expect((await fit(jpeg)).data).toBe(jpeg);
    }
  });

  it('re-encodes a JPEG with stray bytes between segments or no EOI; refuses one whose Huffman table overruns', async () => {
    const jpeg = await make.photoJpeg();
    const second = 4 + ((jpeg[4]! << 8) | jpeg[5]!); // after the first segment, as some writers pad
    const stray = new Uint8Array([...jpeg.subarray(0, second), 0x00, 0x11, ...jpeg.subarray(second)]);
    const dht = jpeg.indexOf(0xc4, 2) - 1; // the first DHT marker: claim one more symbol than it holds
    const badTable = jpeg.slice();
    badTable[dht + 4 + 16]! += 1;
    const noEoi = jpeg.subarray(0, jpeg.length - 2);
    for (const damaged of [stray, noEoi]) {
      expect(checkJpegIntegrity(damaged)).toMatchObject({ fatal: false });
      const result = await fit(damaged);
      expect(result.reencoded).toBe(true);
      expect(checkJpegIntegrity(result.data)).toBeUndefined();
    }
    // libjpeg cannot recover from a table that overruns its segment: a typed error, not the bytes.
    expect(checkJpegIntegrity(badTable)).toMatchObject({ fatal: false });
    await expect(fit(badTable)).rejects.toMatchObject({ code: 'E_CORRUPT' });
  });

  it('refuses a 12-bit JPEG as E_UNSUPPORTED (never passed through, never called damaged)', async () => {
    const jpeg = await make.photoJpeg();
    const sof = jpeg.indexOf(0xc0, 2) - 1;
    const twelveBit = jpeg.slice();
    twelveBit[sof + 4] = 12;
    for (const provider of ['portable', 'anthropic'] as const) {
      await expect(fit(twelveBit, { provider })).rejects.toMatchObject({
        code: 'E_UNSUPPORTED',
        message: expect.stringContaining('12-bit'),
      });
    }
  });
});

describe('passthrough integrity: WebP', () => {
  it('re-encodes a WebP whose RIFF size disagrees with the file, or whose VP8 partition overruns its chunk', async () => {
    const webp = await make.webp({ width: 120, height: 80 });
    expect(checkWebpIntegrity(webp)).toBeUndefined();
    const longer = new Uint8Array([...webp, 0, 0]);
    const partition = webp.slice();
    partition[20 + 2] = 0xff; // VP8 frame tag: first partition size far past the chunk
    for (const damaged of [longer, partition]) {
      expect(checkWebpIntegrity(damaged)).toMatchObject({ fatal: false });
      const result = await fit(damaged).catch((error: { code: string }) => error);
      // Re-encoded when libwebp can still decode it, otherwise a typed error: never the damaged bytes.
      if ('data' in result) expect(result.data).not.toBe(damaged);
      else expect(result.code).toBe('E_CORRUPT');
    }
  });
});
