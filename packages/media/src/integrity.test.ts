import { deflateSync, inflateSync, crc32 as zlibCrc32 } from 'node:zlib';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { process as fit, type ProcessOptions } from '@glimpse/media';
import { strictProblems } from '../../../test/support/strict-oracle.js';
import { verifyIntegrity } from './integrity.js';
import { manyScanJpeg } from '../../../test/fixtures/jpeg-scans.js';
import * as make from '../../../test/fixtures/make.js';
import { crc32 } from './formats/png/crc32.js';
import { checkGifImageData, checkGifIntegrity } from './formats/gif/integrity.js';
import { checkJpegIntegrity } from './formats/jpeg/integrity.js';
import { checkPdfIntegrity, verifyPdfIntegrity } from './formats/pdf/integrity.js';
import { checkPngIntegrity } from './formats/png/integrity.js';
import { checkWebpIntegrity } from './formats/webp/integrity.js';

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
  it('matches zlib from every start alignment, on every length around the 16-byte stride', () => {
    const bytes = make.garbage(300);
    for (let start = 0; start < 8; start++)
      for (let length = 0; length + start <= 300; length += length < 40 ? 1 : 7)
        expect(crc32(bytes, start, start + length)).toBe(zlibCrc32(bytes.subarray(start, start + length)));
    expect(crc32(bytes, 5, 290)).toBe(zlibCrc32(bytes.subarray(5, 290)));
  });

  it('matches zlib on views that start at any byte of their buffer, and on 64 KB runs', () => {
    const buffer = make.garbage(70_000);
    for (let offset = 0; offset < 4; offset++) {
      const view = buffer.subarray(offset + 1, 69_990 - offset);
      expect(crc32(view)).toBe(zlibCrc32(view));
      expect(crc32(view, 3, 65_539)).toBe(zlibCrc32(view.subarray(3, 65_539)));
    }
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
      await expect(fit(broken, { preset: 'anthropic' })).rejects.toMatchObject({ code: 'E_CORRUPT' });
    }
  });

  it('re-encodes (does not pass through) a PNG whose ancillary chunk is damaged or that has bytes after IEND', async () => {
    const png = await make.screenshotPng({ width: 200, height: 120 });
    const withText = make.insertPngChunk(png, 'tEXt', new TextEncoder().encode('Comment\0hello'));
    // Intact: passes through, less its text chunk (metadata), so exactly the PNG it was made from.
    const passed = await fit(withText);
    expect(passed).toMatchObject({ reencoded: false, steps: ['metadata-removed'] });
    expect(Buffer.from(passed.data).equals(Buffer.from(png))).toBe(true);
    expect((await fit(withText, { keepMetadata: true })).data).toBe(withText);
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
    for (const preset of ['portable', 'anthropic'] as const) {
      await expect(fit(twelveBit, { preset })).rejects.toMatchObject({
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

// ---------------------------------------------------------------- the full read before passthrough
// Each file below passes the cheap structural checks, yet a strict decoder refuses it: the full read of
// the image data (verifyIntegrity) must keep it from being sent untouched.

/** Which of the strict oracle's problems name `tool` (the reference tools of test/support/strict-oracle.ts). */
function refusedBy(bytes: Uint8Array, tool: string): boolean {
  return strictProblems(bytes).some((problem) => problem.startsWith(`${tool} refuses`));
}

/** `process` must not send `damaged` as it came: a typed E_CORRUPT, or a re-encoded file every strict reader takes. */
async function neverPassedThrough(damaged: Uint8Array, options: ProcessOptions = {}): Promise<string> {
  const result = await fit(damaged, options).catch((error: { code: string }) => error);
  if (!('data' in result)) {
    expect(result.code).toBe('E_CORRUPT');
    return 'E_CORRUPT';
  }
  expect(result.data).not.toBe(damaged);
  expect(result.reencoded).toBe(true);
  expect(result.warnings.map((w) => w.code)).toEqual(['W_REPAIRED']);
  expect(strictProblems(result.data, result.mediaType)).toEqual([]);
  return 'W_REPAIRED';
}

/** A PNG written by hand: an 8-bit RGB image of `rows` (each row's filter byte first), zlib-compressed. */
function handmadePng(width: number, rows: number[][], extra: Uint8Array[] = []): Uint8Array {
  const ihdr = new Uint8Array(13);
  new DataView(ihdr.buffer).setUint32(0, width);
  new DataView(ihdr.buffer).setUint32(4, rows.length);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return new Uint8Array([
    ...[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
    ...make.pngChunk('IHDR', ihdr),
    ...extra.flatMap((chunk) => [...chunk]),
    ...make.pngChunk('IDAT', deflateSync(Uint8Array.from(rows.flat()))),
    ...make.pngChunk('IEND', new Uint8Array(0)),
  ]);
}

/** The same PNG with the `type` chunk's body replaced by `body` (and its CRC recomputed: only the content is wrong). */
function replaceChunk(png: Uint8Array, type: string, body: Uint8Array): Uint8Array {
  const { offset, length } = chunkAt(png, type);
  return new Uint8Array([
    ...png.subarray(0, offset),
    ...make.pngChunk(type, body),
    ...png.subarray(offset + 12 + length),
  ]);
}

describe('passthrough integrity: the full read (PNG, libpng)', () => {
  const rgbRow = (filter: number) => [filter, 10, 20, 30, 40, 50, 60];
  const valid = handmadePng(2, [rgbRow(0), rgbRow(1)]);

  it('passes a valid PNG through untouched', async () => {
    expect(strictProblems(valid)).toEqual([]);
    expect(await verifyIntegrity(valid, 'image/png')).toBeUndefined();
    expect((await fit(valid)).data).toBe(valid);
  });

  it('refuses image data with a row filter type past 4 (pngcheck: invalid row-filter type)', async () => {
    const badFilter = handmadePng(2, [rgbRow(0), rgbRow(7)]);
    expect(checkPngIntegrity(badFilter)).toBeUndefined(); // every CRC is right
    expect(refusedBy(badFilter, 'pngcheck')).toBe(true);
    expect(await verifyIntegrity(badFilter, 'image/png')).toMatchObject({ fatal: true });
    await expect(fit(badFilter)).rejects.toMatchObject({
      code: 'E_CORRUPT',
      message: expect.stringContaining('libpng'),
    });
  });

  it('refuses image data whose zlib stream is damaged or fails its Adler-32 (CRCs recomputed to match)', async () => {
    const { offset, length } = chunkAt(valid, 'IDAT');
    const stream = valid.slice(offset + 8, offset + 8 + length);
    const badAdler = stream.slice();
    badAdler[badAdler.length - 1]! ^= 0xff;
    const badData = stream.slice();
    badData[2] = 0xff; // the first deflate block header: an invalid block type
    for (const body of [badAdler, badData]) {
      const damaged = replaceChunk(valid, 'IDAT', body);
      expect(checkPngIntegrity(damaged)).toBeUndefined();
      expect(refusedBy(damaged, 'pngcheck')).toBe(true);
      expect(await verifyIntegrity(damaged, 'image/png')).toBeDefined();
      await neverPassedThrough(damaged);
    }
  });

  it('re-encodes a PNG whose ancillary chunks have invalid lengths or values, or whose IEND is not empty', async () => {
    const cases = [
      handmadePng(2, [rgbRow(0), rgbRow(0)], [make.pngChunk('gAMA', new Uint8Array(3))]), // gAMA is 4 bytes
      handmadePng(2, [rgbRow(0), rgbRow(0)], [make.pngChunk('pHYs', new Uint8Array(7))]), // pHYs is 9 bytes
      handmadePng(2, [rgbRow(0), rgbRow(0)], [make.pngChunk('sRGB', Uint8Array.of(9))]), // rendering intent 0-3
      handmadePng(2, [rgbRow(0), rgbRow(0)], [make.pngChunk('pHYs', Uint8Array.of(0, 0, 1, 0, 0, 0, 1, 0, 7))]), // unit 0 or 1
      handmadePng(2, [rgbRow(0), rgbRow(0)], [make.pngChunk('pHQs', new Uint8Array(9))]), // a public name no one defined
      handmadePng(2, [rgbRow(0), rgbRow(0)], [make.pngChunk('PLTE', new Uint8Array(10))]), // not whole RGB entries
      replaceChunk(valid, 'IEND', Uint8Array.of(0)),
    ];
    for (const damaged of cases) {
      expect(refusedBy(damaged, 'pngcheck')).toBe(true);
      expect(await neverPassedThrough(damaged)).toBe('W_REPAIRED');
    }
  });
});

describe('passthrough integrity: the full read (JPEG, libjpeg as djpeg -strict)', () => {
  /** Offset of the first SOS marker's segment body. */
  const sosBody = (jpeg: Uint8Array) => {
    for (let at = 2; at < jpeg.length; ) {
      if (jpeg[at + 1] === 0xda) return at + 4;
      at += 2 + ((jpeg[at + 2]! << 8) | jpeg[at + 3]!);
    }
    throw new Error('no SOS');
  };

  it('refuses a scan whose component names a Huffman table no DHT defined', async () => {
    const jpeg = await make.photoJpeg();
    const damaged = jpeg.slice();
    damaged[sosBody(jpeg) + 2] = 0x33; // component 1: DC and AC table 3
    expect(checkJpegIntegrity(damaged)).toBeUndefined();
    expect(refusedBy(damaged, 'djpeg')).toBe(true);
    expect(await verifyIntegrity(damaged, 'image/jpeg')).toMatchObject({ fatal: true });
    await expect(fit(damaged)).rejects.toMatchObject({
      code: 'E_CORRUPT',
      message: expect.stringContaining('Huffman'),
    });
  });

  it('re-encodes (or refuses) a JPEG whose entropy-coded data is damaged', async () => {
    const jpeg = await make.photoJpeg();
    const damaged = jpeg.slice();
    const start = sosBody(jpeg) + 12;
    for (let at = start + 200; at < start + 240; at++) if (damaged[at] !== 0xff) damaged[at] = 0xff - at;
    // Bytes that make no 0xFF marker: the marker structure is still sound.
    for (let at = start; at < damaged.length - 2; at++)
      if (damaged[at] === 0xff && damaged[at + 1] === 0xff) damaged[at + 1] = 0;
    expect(refusedBy(damaged, 'djpeg')).toBe(true);
    expect(await verifyIntegrity(damaged, 'image/jpeg')).toBeDefined();
    await neverPassedThrough(damaged);
  });
});

describe('bounded work: progressive JPEG scans (the libjpeg-turbo scan-count DoS)', () => {
  /** djpeg's exit status on `jpeg` with `args` (libjpeg-turbo-progs: installed by scripts/install-test-tools.sh). */
  const djpeg = (jpeg: Uint8Array, ...args: string[]) => {
    const file = join(mkdtempSync(join(tmpdir(), 'glimpse-scans-')), 'file.jpg');
    writeFileSync(file, jpeg);
    const run = spawnSync('djpeg', [...args, '-outfile', '/dev/null', file]);
    if (run.error) throw run.error;
    return run.status;
  };
  /** SOS markers in a JPEG, walked segment by segment (entropy data skipped). */
  const scanCount = (jpeg: Uint8Array) => {
    let scans = 0;
    for (let at = 2; at + 3 < jpeg.length && jpeg[at + 1] !== 0xd9; ) {
      const length = (jpeg[at + 2]! << 8) | jpeg[at + 3]!;
      if (jpeg[at + 1] !== 0xda) {
        at += 2 + length;
        continue;
      }
      scans++;
      for (at += 2 + length; at + 1 < jpeg.length; at++)
        if (jpeg[at] === 0xff && jpeg[at + 1] !== 0 && (jpeg[at + 1]! < 0xd0 || jpeg[at + 1]! > 0xd7)) break;
    }
    return scans;
  };

  it('refuses a valid progression of 2,112 scans as E_TOO_COMPLEX, on the passthrough read and on a decode', async () => {
    const hostile = manyScanJpeg({ width: 64, height: 48, components: 3, scans: 2112 });
    expect(scanCount(hostile)).toBe(2112);
    // Not damage: djpeg -strict reads it without a warning; its scan limit (-maxscans) refuses it.
    expect(djpeg(hostile, '-strict')).toBe(0);
    expect(djpeg(hostile, '-strict', '-maxscans', '100')).not.toBe(0);
    expect(checkJpegIntegrity(hostile)).toBeUndefined();
    const refusal = { code: 'E_TOO_COMPLEX', message: expect.stringContaining('scans') };
    await expect(verifyIntegrity(hostile, 'image/jpeg')).rejects.toMatchObject(refusal);
    await expect(fit(hostile)).rejects.toMatchObject(refusal); // within the limits: the strict read
    await expect(fit(hostile, { maxEdge: 16 })).rejects.toMatchObject(refusal); // resized: the decoder
  });

  it('draws the line where djpeg -maxscans 100 does, and at 32 reads of every block', async () => {
    // 4:2:0, chroma scans first: each reads a sixth of the blocks, so 101 scans stay under 32 passes.
    const [atLimit, overLimit] = [100, 101].map((scans) =>
      manyScanJpeg({ width: 67, height: 45, components: 3, subsampled: true, scans }),
    ) as [Uint8Array, Uint8Array];
    expect(djpeg(atLimit, '-strict', '-maxscans', '100')).toBe(0);
    expect(djpeg(overLimit, '-strict', '-maxscans', '100')).not.toBe(0);
    expect((await fit(atLimit)).data).toBe(atLimit);
    await expect(fit(overLimit)).rejects.toMatchObject({
      code: 'E_TOO_COMPLEX',
      message: expect.stringContaining('more than 100 scans'),
    });
    await expect(fit(overLimit, { maxEdge: 16 })).rejects.toMatchObject({ code: 'E_TOO_COMPLEX' });
    // Gray: every scan reads every block, so the 33rd scan is the 33rd pass.
    const [passes32, passes33] = [32, 33].map((scans) =>
      manyScanJpeg({ width: 67, height: 45, components: 1, scans }),
    ) as [Uint8Array, Uint8Array];
    expect(djpeg(passes33, '-strict')).toBe(0);
    expect((await fit(passes32)).data).toBe(passes32);
    await expect(fit(passes33)).rejects.toMatchObject({
      code: 'E_TOO_COMPLEX',
      message: expect.stringContaining('more than 32 times over'),
    });
  });

  it('decodes and passes through the progressive JPEGs encoders write (libjpeg: 10 scans; CMYK: 18)', async () => {
    const ycbcr = await make.photoJpeg({ progressive: true });
    expect(scanCount(ycbcr)).toBe(10);
    expect((await fit(ycbcr)).data).toBe(ycbcr);
    expect((await fit(ycbcr, { maxEdge: 100 })).steps).toContain('resized');
    // CMYK is always converted (never sent as it is), so this is the decoder's bound.
    const cmyk = await make.photoJpeg({ progressive: true, cmyk: true });
    expect(scanCount(cmyk)).toBe(18);
    expect((await fit(cmyk)).reencoded).toBe(true);
  });
});

describe('passthrough integrity: GIF', () => {
  /** A 2×1 GIF89a with a two-colour global table and `lzw` as its image data (min code size 2). */
  const handmadeGif = (lzw: number[], { screenWidth = 2, trailer = true } = {}) =>
    Uint8Array.from([
      ...new TextEncoder().encode('GIF89a'),
      ...[screenWidth, 0, 1, 0, 0x80, 0, 0],
      ...[0, 0, 0, 255, 255, 255],
      ...[0x2c, 0, 0, 0, 0, 2, 0, 1, 0, 0],
      2,
      lzw.length,
      ...lzw,
      0,
      ...(trailer ? [0x3b] : []),
    ]);
  // Codes of 3 bits, least significant first: clear (4), 0, 1, end (5).
  const pixels = [0x04 | (0 << 3) | (1 << 6), (1 >> 2) | (5 << 1)];
  const valid = handmadeGif(pixels);

  it('passes a valid GIF through where the route takes GIF', async () => {
    expect(strictProblems(valid)).toEqual([]);
    expect(checkGifIntegrity(valid)).toBeUndefined();
    expect(checkGifImageData(valid)).toBeUndefined();
    expect((await fit(valid, { preset: 'anthropic' })).data).toBe(valid);
  });

  it('refuses LZW data that uses a code before it is defined (giflib: image is defective)', async () => {
    const damaged = handmadeGif([0x04 | (7 << 3), 5 << 1]); // clear, then code 7 with only 6 defined
    expect(checkGifIntegrity(damaged)).toBeUndefined();
    expect(refusedBy(damaged, 'gif2rgb')).toBe(true);
    expect(checkGifImageData(damaged)).toMatchObject({ fatal: true });
    await expect(fit(damaged, { preset: 'anthropic' })).rejects.toMatchObject({ code: 'E_CORRUPT' });
  });

  it('re-encodes a GIF with no trailer, an image outside its screen, too few pixels or a code size past 8', async () => {
    const cases = [
      handmadeGif(pixels, { trailer: false }),
      handmadeGif(pixels, { screenWidth: 1 }),
      handmadeGif([0x04 | (0 << 3) | (5 << 6)]), // clear, one pixel, end: the second pixel is missing
    ];
    const wideCodes = valid.slice();
    wideCodes[valid.indexOf(0x2c) + 10 + 0] = 9; // LZW minimum code size 9
    for (const damaged of cases) {
      expect(refusedBy(damaged, 'gif2rgb')).toBe(true);
      expect(await neverPassedThrough(damaged, { preset: 'anthropic' })).toBe('W_REPAIRED');
    }
    expect(checkGifIntegrity(wideCodes)).toMatchObject({ fatal: false });
    expect(refusedBy(wideCodes, 'gif2rgb')).toBe(true);
    await neverPassedThrough(wideCodes, { preset: 'anthropic' });
  });
});

describe('passthrough integrity: the full read (WebP, libwebp)', () => {
  it('refuses a lossy WebP whose token data is cut short though every size agrees (dwebp: not enough data)', async () => {
    const webp = await make.webp({ width: 120, height: 80 });
    const view = new DataView(webp.buffer, webp.byteOffset, webp.byteLength);
    expect(new TextDecoder().decode(webp.subarray(12, 16))).toBe('VP8 ');
    const chunk = view.getUint32(16, true);
    const cut = Math.floor(chunk / 2) & ~1; // past the first partition, inside the token partition
    const damaged = new Uint8Array([...webp.subarray(0, 20 + cut)]);
    new DataView(damaged.buffer).setUint32(4, damaged.length - 8, true);
    new DataView(damaged.buffer).setUint32(16, cut, true);
    expect(checkWebpIntegrity(damaged)).toBeUndefined();
    expect(refusedBy(damaged, 'dwebp')).toBe(true);
    expect(await verifyIntegrity(damaged, 'image/webp')).toMatchObject({ fatal: true });
    await expect(fit(damaged)).rejects.toMatchObject({
      code: 'E_CORRUPT',
      message: expect.stringContaining('libwebp'),
    });
  });
});

describe('passthrough integrity: WebP layout (webpinfo)', () => {
  /** `webp` (a simple lossy file) rewrapped with a VP8X header carrying `flags`, followed by `extra` chunks. */
  const extended = (webp: Uint8Array, width: number, height: number, flags: number, extra: Uint8Array[] = []) => {
    const vp8x = new Uint8Array(18);
    const view = new DataView(vp8x.buffer);
    vp8x.set(new TextEncoder().encode('VP8X'));
    view.setUint32(4, 10, true);
    vp8x[8] = flags;
    view.setUint32(12, (width - 1) | ((height - 1) << 24), true);
    view.setUint16(16, (height - 1) >> 8, true);
    const body = [...vp8x, ...webp.subarray(12), ...extra.flatMap((chunk) => [...chunk])];
    const out = new Uint8Array([...webp.subarray(0, 12), ...body]);
    new DataView(out.buffer).setUint32(4, out.length - 8, true);
    return out;
  };

  it('passes a well-formed extended WebP through; re-encodes one missing a promised chunk or holding two bitstreams', async () => {
    const webp = await make.webp({ width: 120, height: 80 });
    const valid = extended(webp, 120, 80, 0);
    expect(strictProblems(valid)).toEqual([]);
    expect((await fit(valid)).data).toBe(valid);
    const missingIcc = extended(webp, 120, 80, 0x20); // ICC flag, no ICCP chunk
    const twoImages = extended(webp, 120, 80, 0, [webp.subarray(12)]);
    const wrongCanvas = extended(webp, 121, 80, 0);
    for (const damaged of [missingIcc, twoImages, wrongCanvas]) {
      expect(checkWebpIntegrity(damaged)).toMatchObject({ fatal: false });
      expect(refusedBy(damaged, 'webpinfo')).toBe(true);
      await neverPassedThrough(damaged);
    }
  });
});

describe('passthrough integrity: PDF', () => {
  it('refuses a PDF whose trailer keyword is damaged, which pdf-lib reads but qpdf cannot open', async () => {
    const pdf = await make.pdf({ pages: 1 });
    expect((await fit(pdf)).data).toBe(pdf);
    const text = latin1Text(pdf);
    const at = text.lastIndexOf('trailer');
    expect(at).toBeGreaterThan(0);
    const damaged = pdf.slice();
    damaged[at + 2] = 0x40; // "tr@iler"
    expect(checkPdfIntegrity(damaged)).toMatchObject({ fatal: true });
    expect(refusedBy(damaged, 'qpdf')).toBe(true);
    await expect(fit(damaged)).rejects.toMatchObject({
      code: 'E_CORRUPT',
      message: expect.stringContaining('trailer'),
    });
  });

  it('sends a sound PDF untouched, with a cross-reference table or with object and cross-reference streams', async () => {
    for (const pdf of [await make.pdf({ pages: 2 }), await withObjectStreams(await make.pdf({ pages: 2 }))]) {
      expect(strictProblems(pdf)).toEqual([]);
      expect(await verifyPdfIntegrity(pdf)).toBeUndefined();
      expect((await fit(pdf)).data).toBe(pdf);
    }
  });

  it('refuses a PDF whose page content stream zlib cannot inflate, which qpdf refuses', async () => {
    const pdf = await make.pdf({ pages: 1 });
    const damaged = pdf.slice();
    damaged[streamData(pdf, '/FlateDecode') + 2] = 0xff; // a deflate block of the reserved type 3
    expect(refusedBy(damaged, 'qpdf')).toBe(true);
    await expect(fit(damaged)).rejects.toMatchObject({
      code: 'E_CORRUPT',
      message: expect.stringContaining("page 1's content stream cannot be inflated (zlib: invalid block type)"),
    });
  });

  it('refuses a PDF whose content stream names a filter that does not exist, which qpdf refuses', async () => {
    const pdf = await make.pdf({ pages: 1 });
    const damaged = replaceOnce(pdf, '/FlateDecode', '/FlateDecodX');
    expect(refusedBy(damaged, 'qpdf')).toBe(true);
    await expect(fit(damaged)).rejects.toMatchObject({
      code: 'E_CORRUPT',
      message: expect.stringContaining('/FlateDecodX'),
    });
  });

  it('refuses a PDF with an object numbered past 2^31 - 1, where qpdf gives up', async () => {
    const pdf = await make.pdf({ pages: 1 });
    const damaged = replaceOnce(pdf, '\nxref', '\n4294967296 0 obj\n<< >>\nendobj\nxref');
    expect(refusedBy(damaged, 'qpdf')).toBe(true);
    await expect(fit(damaged)).rejects.toMatchObject({
      code: 'E_CORRUPT',
      message: expect.stringContaining('4294967296'),
    });
  });

  it('re-saves a PDF whose startxref misses its cross-reference stream, which qpdf cannot recover; the copy passes', async () => {
    const pdf = await withObjectStreams(await make.pdf({ pages: 2 }));
    const text = latin1Text(pdf);
    const [, offset = ''] = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(text) ?? [];
    const damaged = replaceOnce(
      pdf,
      `startxref\n${offset}`,
      `startxref\n${String(Number(offset) - 10).padStart(offset.length, '0')}`,
    );
    expect(refusedBy(damaged, 'qpdf')).toBe(true);
    const result = await fit(damaged);
    expect(result).toMatchObject({ mediaType: 'application/pdf', reencoded: true, pages: 2 });
    expect(result.warnings).toEqual([
      {
        code: 'W_REPAIRED',
        message: expect.stringContaining('re-saved with a new cross-reference table because startxref points'),
      },
    ]);
    expect(strictProblems(result.data)).toEqual([]);
  });

  it('re-saves a PDF whose cross-reference table puts an object at the wrong byte', async () => {
    const pdf = await make.pdf({ pages: 1 });
    const text = latin1Text(pdf);
    const entry = /\n(\d{10}) 00000 n/.exec(text.slice(text.lastIndexOf('\nxref')))?.[1] ?? '';
    const damaged = replaceOnce(pdf, `${entry} 00000 n`, `${String(Number(entry) + 3).padStart(10, '0')} 00000 n`);
    expect(checkPdfIntegrity(damaged)).toBeUndefined();
    const result = await fit(damaged);
    expect(result.reencoded).toBe(true);
    expect(result.warnings[0]?.message).toMatch(/puts object \d+ at byte \d+, where that object is not/);
    expect(strictProblems(result.data)).toEqual([]);
  });
});

describe('passthrough integrity: PDF trailers, cross-reference streams and incremental updates (qpdf --check)', () => {
  /** qpdf refuses it (exit 2, unless it only `warns`), and `process` re-saves it with a fresh table and trailer that qpdf takes. */
  async function mended(damaged: Uint8Array, problem: RegExp, warns = false): Promise<void> {
    expect(refusedBy(damaged, 'qpdf')).toBe(!warns);
    const result = await fit(damaged);
    expect(result).toMatchObject({ mediaType: 'application/pdf', reencoded: true });
    expect(result.warnings.map((warning) => warning.message)).toEqual([expect.stringMatching(problem)]);
    expect(strictProblems(result.data)).toEqual([]);
  }

  it('re-saves a PDF whose trailer /Root is not a reference to a dictionary (qpdf: unable to find /Root dictionary)', async () => {
    const pdf = await make.pdf({ pages: 1 });
    const streams = await withObjectStreams(pdf);
    const content = /(\d+) 0 obj\s*<<[^>]*\/Length/.exec(latin1Text(pdf))?.[1] ?? '';
    for (const [from, to, problem] of [
      [pdf, '/Root 5', /\/Root is the number 5, not a reference/],
      [pdf, '/Root (catalog)', /\/Root is a string/],
      [pdf, `/Root ${content} 0 R`, /\/Root \(\d+ 0 R\) is not a dictionary/], // the page's content stream
      [pdf, '/Root 99 0 R', /\/Root \(99 0 R\) is not a dictionary/], // no such object
      [pdf, '/Root 2 1 R', /\/Root \(2 1 R\) is not a dictionary/], // the catalog, another generation
      [streams, '/Root (2 0)', /\/Root is a string/], // in a cross-reference stream's dictionary
    ] as const) {
      await mended(replaceOnce(from, '/Root 2 0 R', to), problem);
    }
  });

  it('re-saves a PDF whose cross-reference stream holds a field qpdf cannot take (2^32, an unknown entry type)', async () => {
    const pdf = await withObjectStreams(await make.pdf({ pages: 1 }));
    // Wider fields, same entries: valid, and sent untouched.
    const wider = rewriteXrefStream(pdf, () => {});
    expect(strictProblems(wider)).toEqual([]);
    expect((await fit(wider)).data).toBe(wider);
    const inUse = (type: number) => (entries: number[][]) => entries.find((entry) => entry[0] === type)!;
    for (const [change, problem] of [
      [(e: number[][]) => (inUse(1)(e)[2] = 2 ** 32), /gives object \d+ a field past 2147483647/], // a generation
      [(e: number[][]) => (inUse(2)(e)[1] = 2 ** 32), /gives object \d+ a field past 2147483647/], // an object stream
      [(e: number[][]) => (inUse(2)(e)[2] = 2 ** 32), /gives object \d+ a field past 2147483647/], // an index in it
      [(e: number[][]) => (inUse(1)(e)[0] = 3), /the entry type 3, which no reader knows/],
    ] as const) {
      await mended(rewriteXrefStream(pdf, change), problem);
    }
    // An /Index listing fewer rows than the data holds, or not whole numbers (fuzz finds): qpdf lists no objects.
    const index = /\/Index \[ 0 \d+ \]/.exec(latin1Text(pdf))?.[0] ?? '';
    await mended(replaceOnce(pdf, index, '/Index [ 0 0 ]'), /holds \d+ bytes of entries where its \/Index lists 0/);
    await mended(replaceOnce(pdf, index, '/Index [ 0 -0 ]'), /an \/Index that is not pairs of whole numbers/);
    // An offset past the end: qpdf warns, rebuilds the table by scanning and reads the file (exit 3).
    const past = rewriteXrefStream(pdf, (e) => (inUse(1)(e)[1] = 2 ** 32));
    await mended(past, /puts object \d+ at byte 4294967296/, true);
  });

  it('refuses a PDF whose trailer holds a broken hex string, which qpdf cannot read', async () => {
    const pdf = await make.pdf({ pages: 1 });
    for (const damaged of [
      replaceOnce(pdf, '/Root', '/ID [<12G4> <12ab>] /Root'),
      replaceOnce(pdf, '/Root', '/ID [<12ab <12ab>] /Root'), // the first one never closed
      replaceOnce(await withObjectStreams(pdf), '/Root', '/ID [<12G4> <12ab>] /Root'), // a stream's dictionary
    ]) {
      expect(refusedBy(damaged, 'qpdf')).toBe(true);
      await expect(fit(damaged)).rejects.toMatchObject({
        code: 'E_CORRUPT',
        // pdf-lib's parse of the trailer is read first (formats/pdf/objects.ts), then its bytes (formats/pdf/xref.ts).
        message: expect.stringMatching(/its trailer holds a hex string with "[G<]" in it|a hex string holds "[G<]"/),
      });
    }
  });

  it('sends an incremental update untouched when it is consistent: a table on a table, a stream on a stream, a table on a stream', async () => {
    const pdf = await make.pdf({ pages: 1 });
    const streams = await withObjectStreams(pdf);
    for (const updated of [appendUpdate(pdf), appendUpdate(streams, { stream: true }), appendUpdate(streams)]) {
      expect(strictProblems(updated)).toEqual([]);
      expect(await verifyPdfIntegrity(updated)).toBeUndefined();
      expect((await fit(updated)).data).toBe(updated);
    }
  });

  it('re-saves an inconsistent incremental update: no /Root in the new trailer, a /Prev that is no offset or misses', async () => {
    const pdf = await make.pdf({ pages: 1 });
    const streams = await withObjectStreams(pdf);
    const startxref = (bytes: Uint8Array) => Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(latin1Text(bytes))?.[1]);
    await mended(appendUpdate(pdf, { root: '' }), /its newest trailer names no \/Root/);
    await mended(appendUpdate(streams, { stream: true, root: '' }), /its newest trailer names no \/Root/);
    await mended(appendUpdate(pdf, { prev: `${startxref(pdf)} 0 R` }), /\/Prev is a reference/);
    await mended(appendUpdate(streams, { stream: true, prev: String(startxref(streams) + 3) }), /no cross-reference/);
  });
});

/**
 * `pdf` (as pdf-lib writes it: objects 1-6 or 1-8, the Info dictionary 3) with an incremental update
 * appended that gives object 3 a new title: a cross-reference table and trailer, or a cross-reference
 * stream (object `size`), whose /Prev is the previous startxref unless `prev` says otherwise, and whose
 * /Root is the catalog's unless `root` replaces it.
 */
function appendUpdate(pdf: Uint8Array, { stream = false, prev = '', root = '/Root 2 0 R' } = {}): Uint8Array {
  let text = latin1Text(pdf);
  const previous = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(text)?.[1] ?? '';
  const size = Number(/\/Size (\d+)/.exec(text.slice(text.lastIndexOf('/Size')))?.[1]);
  if (!text.endsWith('\n')) text += '\n';
  const info = text.length;
  text += '3 0 obj\n<< /Title (updated) >>\nendobj\n';
  const xref = text.length;
  const trailer = `${root} /Info 3 0 R /Prev ${prev || previous}`;
  if (stream) {
    // Entries for objects 0, 3 and the stream itself (number `size`): type, 2-byte offset, 2-byte generation.
    const rows = [0, 0, 0, 0xff, 0xff, 1, info >> 8, info & 0xff, 0, 0, 1, xref >> 8, xref & 0xff, 0, 0];
    const data = latin1Text(deflateSync(Uint8Array.from(rows)));
    text += `${size} 0 obj\n<< /Type /XRef /Size ${size + 1} ${trailer} /W [1 2 2] /Index [0 1 3 1 ${size} 1] /Filter /FlateDecode /Length ${data.length} >>\nstream\n${data}\nendstream\nendobj\n`;
  } else {
    const entry = `${String(info).padStart(10, '0')} 00000 n \n`;
    text += `xref\n0 1\n0000000000 65535 f \n3 1\n${entry}trailer\n<< /Size ${size} ${trailer} >>\n`;
  }
  return Uint8Array.from(`${text}startxref\n${xref}\n%%EOF\n`, (c) => c.charCodeAt(0));
}

/** `pdf` with its cross-reference stream (pdf-lib's: /W [ 1 2 2 ], Flate) rewritten with 5-byte fields 2 and 3, after `change`. */
function rewriteXrefStream(pdf: Uint8Array, change: (entries: number[][]) => void): Uint8Array {
  const text = latin1Text(pdf);
  const dictionary = text.lastIndexOf('<<', text.lastIndexOf('/Type /XRef'));
  const dataStart = text.indexOf('stream\n', dictionary) + 'stream\n'.length;
  const dataEnd = text.indexOf('\nendstream', dataStart);
  expect(text.slice(dictionary, dataStart)).toContain('/W [ 1 2 2 ]');
  const rows = inflateSync(pdf.subarray(dataStart, dataEnd));
  const entries: number[][] = [];
  for (let at = 0; at + 5 <= rows.length; at += 5)
    entries.push([rows[at]!, (rows[at + 1]! << 8) | rows[at + 2]!, (rows[at + 3]! << 8) | rows[at + 4]!]);
  change(entries);
  const bytes: number[] = [];
  const widths = [1, 5, 5];
  for (const entry of entries)
    entry.forEach((value, field) => {
      for (let k = widths[field]! - 1; k >= 0; k--) bytes.push(Math.floor(value / 2 ** (8 * k)) % 256);
    });
  const data = latin1Text(deflateSync(Uint8Array.from(bytes)));
  const head = text
    .slice(dictionary, dataStart)
    .replace('/W [ 1 2 2 ]', '/W [ 1 5 5 ]')
    .replace(/\/Length \d+/, `/Length ${data.length}`);
  return Uint8Array.from(text.slice(0, dictionary) + head + data + text.slice(dataEnd), (c) => c.charCodeAt(0));
}

/** The same document saved as pdf-lib saves by default: objects in object streams, a cross-reference stream, no trailer keyword. */
async function withObjectStreams(pdf: Uint8Array): Promise<Uint8Array> {
  return (await PDFDocument.load(pdf)).save({ useObjectStreams: true, updateFieldAppearances: false });
}

/** Where the data of the first stream whose dictionary has `key` starts. */
function streamData(pdf: Uint8Array, key: string): number {
  const text = latin1Text(pdf);
  const at = text.indexOf('stream\n', text.indexOf(key));
  expect(at).toBeGreaterThan(0);
  return at + 'stream\n'.length;
}

/** `pdf` with the first `from` replaced by `to` (latin1 text). */
function replaceOnce(pdf: Uint8Array, from: string, to: string): Uint8Array {
  const text = latin1Text(pdf);
  expect(text.includes(from)).toBe(true);
  return Uint8Array.from(text.replace(from, to), (c) => c.charCodeAt(0));
}

/** Each byte as the character of that code (ISO-8859-1): TextDecoder('latin1') is windows-1252. */
function latin1Text(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}
