// The oracle must refuse what libpng, libjpeg, libwebp and giflib refuse, and pass what they read.
import { describe, expect, it } from 'vitest';
import * as media from '@glimpse/media';
import { deflateSync } from 'node:zlib';
import { concatBytes, gif, pdf, photoJpeg, pngChunk, screenshotPng, webp } from '../fixtures/make.js';
import * as checked from './checked-media.js';
import { strictProblems } from './strict-oracle.js';

const SIGNATURE = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A 2×2 grey PNG assembled by hand, so each flaw can be put in on purpose. */
function handPng({
  iendCrc,
  idat = deflateSync(new Uint8Array([0, 1, 2, 0, 3, 4])),
}: {
  iendCrc?: number;
  idat?: Uint8Array;
} = {}): Uint8Array {
  const ihdr = new Uint8Array([0, 0, 0, 2, 0, 0, 0, 2, 8, 0, 0, 0, 0]);
  const iend = pngChunk('IEND', new Uint8Array());
  if (iendCrc !== undefined) new DataView(iend.buffer, iend.byteOffset).setUint32(8, iendCrc);
  return concatBytes([SIGNATURE, pngChunk('IHDR', ihdr), pngChunk('IDAT', idat), iend]);
}

function flipByte(bytes: Uint8Array, at: number): Uint8Array {
  const copy = bytes.slice();
  copy[at] = (copy[at] ?? 0) ^ 0xff;
  return copy;
}

describe('strict oracle', () => {
  it('passes sound files of every format', async () => {
    for (const file of [
      handPng(),
      await screenshotPng(),
      await photoJpeg(),
      await webp(),
      await webp({ lossless: true, alpha: true }),
      await gif({ animated: true }),
      await pdf(),
    ]) {
      expect(strictProblems(file)).toEqual([]);
    }
  });

  it('refuses a PNG whose IEND CRC is 0 (what the own encoder once wrote)', () => {
    expect(strictProblems(handPng({ iendCrc: 0 })).join('\n')).toMatch(
      /CRC error in chunk IEND[\s\S]*pngcheck refuses/,
    );
  });

  it('refuses a PNG whose zlib stream fails its Adler-32, and one with too little image data', () => {
    const idat = deflateSync(new Uint8Array([0, 1, 2, 0, 3, 4]));
    expect(strictProblems(handPng({ idat: flipByte(idat, idat.length - 1) })).join('\n')).toMatch(
      /incorrect data check/,
    );
    expect(strictProblems(handPng({ idat: deflateSync(new Uint8Array([0, 1, 2])) }))).toEqual([
      'png: image data is 3 bytes, IHDR needs 6',
    ]);
  });

  it('refuses truncated JPEG, WebP and GIF files', async () => {
    const jpeg = await photoJpeg();
    expect(strictProblems(jpeg.subarray(0, jpeg.length >> 1)).join('\n')).toMatch(/no EOI[\s\S]*djpeg refuses/);
    const lossy = await webp();
    expect(strictProblems(lossy.subarray(0, lossy.length - 10)).join('\n')).toMatch(
      /RIFF size[\s\S]*webpinfo refuses[\s\S]*dwebp refuses/,
    );
    const animation = await gif({ animated: true });
    expect(strictProblems(animation.subarray(0, animation.length >> 1)).join('\n')).toMatch(
      /no trailer[\s\S]*gif2rgb refuses/,
    );
  });

  it('reads PNGs as libpng does: bytes after IEND and a 1970 tIME are no fault (pngcheck alone objects)', () => {
    expect(strictProblems(concatBytes([handPng(), new Uint8Array(3)]))).toEqual([]);
    const png = handPng();
    const tIME = pngChunk('tIME', new Uint8Array([0x07, 0xb2, 1, 1, 0, 0, 0]));
    expect(strictProblems(concatBytes([png.subarray(0, 33), tIME, png.subarray(33)]))).toEqual([]);
  });

  it('refuses a 12-bit JPEG (libjpeg-turbo 8-bit builds, sharp and providers cannot read it)', async () => {
    const jpeg = await photoJpeg();
    const sof = jpeg.findIndex((byte, i) => byte === 0xff && jpeg[i + 1] === 0xc0);
    const twelve = jpeg.slice();
    twelve[sof + 4] = 12;
    expect(strictProblems(twelve).join('\n')).toMatch(/precision 12[\s\S]*djpeg refuses/);
  });

  it('refuses a result whose media type is not what the bytes are', () => {
    expect(strictProblems(handPng(), 'image/jpeg')).toEqual(['says image/jpeg but the bytes are image/png']);
  });

  it("is what tests get as '@glimpse/media'.process", () => {
    expect(media.process).toBe(checked.process);
  });

  it('refuses a result whose stated size is not the output size', async () => {
    const data = await screenshotPng({ width: 40, height: 30 });
    const result = {
      data,
      mediaType: 'image/png',
      width: 41,
      height: 30,
      bytes: data.byteLength,
    } as media.ProcessResult;
    await expect(checked.assertSoundResult(result)).rejects.toThrow(/says 41x30 but sharp reads the output as 40x30/);
  });
});
