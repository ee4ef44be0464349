import { deflateSync, inflateSync } from 'node:zlib';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { process as fit, type ProcessOptions } from '@glimpse/media';
import { encodePngFile } from '../../../../test/fixtures/avif-tools.js';
import * as make from '../../../../test/fixtures/make.js';
import { decodeIndependently, meanAbsDiff, reference } from '../../../../test/support/pixels.js';
import { encodeRaster, type Encoding } from './encode.js';
import { writerOf } from '../formats/registry.js';
import { embedIccProfile, readIccProfile } from './colour-profile.js';
import type { Raster } from '../types.js';
import { concatBytes } from '../../../../test/fixtures/pixels.js';

/** sharp converts the sRGB pixels into Display P3 and embeds its P3 profile: what an iPhone writes. */
function p3(width: number, height: number, seed = 3) {
  return make.fromPixels(make.naturalPixels(width, height, { seed })).withIccProfile('p3');
}

/** A block of pure sRGB red (P3 stores it as about 234,51,35) beside a natural picture, in Display P3. */
async function p3WithRedBlock(width: number, height: number) {
  const pixels = make.naturalPixels(width, height, { seed: 5 });
  for (let y = 0; y < height / 4; y++) {
    for (let x = 0; x < width / 4; x++) pixels.data.set([255, 0, 0], (y * width + x) * 3);
  }
  return make.fromPixels(pixels).withIccProfile('p3');
}

async function iccOf(bytes: Uint8Array): Promise<Uint8Array | undefined> {
  const icc = (await sharp(bytes).metadata()).icc;
  return icc && new Uint8Array(icc);
}

/** Processes, then checks the output against sharp's sRGB rendering of the input (both apply their profiles). */
async function fitAndRender(input: Uint8Array, options: ProcessOptions) {
  const result = await fit(input, options);
  const decoded = await decodeIndependently(result.data);
  const expected = await reference(input, result.width, result.height);
  return { result, decoded, difference: meanAbsDiff(decoded.data, expected) };
}

let p3Profile: Uint8Array;
beforeAll(async () => {
  p3Profile = (await iccOf(await make.toBytes(p3(8, 8).jpeg())))!;
});

describe('readIccProfile', () => {
  it('reads the profile sharp embedded in a JPEG, a PNG and a WebP', async () => {
    for (const [type, image] of [
      ['image/jpeg', p3(64, 48).jpeg()],
      ['image/png', p3(64, 48).png()],
      ['image/webp', p3(64, 48).webp()],
    ] as const) {
      const bytes = await make.toBytes(image);
      const profile = await readIccProfile(bytes, type);
      expect(profile, type).toEqual(await iccOf(bytes));
      expect(profile, type).toEqual(p3Profile);
    }
  });

  it('finds none in files without one, and none in formats it does not read', async () => {
    expect(await readIccProfile(await make.photoJpeg(), 'image/jpeg')).toBeUndefined();
    expect(await readIccProfile(await make.screenshotPng(), 'image/png')).toBeUndefined();
    expect(await readIccProfile(await make.webp(), 'image/webp')).toBeUndefined();
    expect(await readIccProfile(await make.gif(), 'image/gif')).toBeUndefined();
  });

  it('joins JPEG segments in sequence order, whatever order they are stored in', async () => {
    const profile = largeProfile(150_000);
    const jpeg = await embedIccProfile(
      await encoded({ type: 'image/jpeg', quality: 85, lossless: false }),
      'image/jpeg',
      profile,
    );
    const segments = iccSegments(jpeg);
    expect(segments.map((segment) => [jpeg[segment.start + 16], jpeg[segment.start + 17]])).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
    const [first, second, third] = segments.map((segment) => jpeg.subarray(segment.start, segment.end));
    const reordered = concatBytes([
      jpeg.subarray(0, segments[0]!.start),
      third!,
      first!,
      second!,
      jpeg.subarray(segments[2]!.end),
    ]);
    expect(await readIccProfile(reordered, 'image/jpeg')).toEqual(profile);
  });

  it('ignores malformed JPEG APP2 profiles: a missing, repeated or out-of-range segment, a zero count, a bad header', async () => {
    const jpeg = await embedIccProfile(
      await encoded({ type: 'image/jpeg', quality: 85, lossless: false }),
      'image/jpeg',
      largeProfile(150_000),
    );
    const [first, second, third] = iccSegments(jpeg);
    const withoutSecond = concatBytes([jpeg.subarray(0, second!.start), jpeg.subarray(second!.end)]);
    const firstTwice = concatBytes([
      jpeg.subarray(0, third!.start),
      jpeg.subarray(first!.start, first!.end),
      jpeg.subarray(third!.end),
    ]);
    const patched = (offset: number, value: number) => {
      const copy = jpeg.slice();
      copy[offset] = value;
      return copy;
    };
    for (const bad of [
      withoutSecond,
      firstTwice,
      patched(first!.start + 16, 4), // sequence 4 of 3
      patched(first!.start + 16, 0), // sequence 0
      patched(first!.start + 17, 0), // count 0
      patched(second!.start + 17, 2), // counts disagree
      patched(first!.start + 4 + 14 + 36, 0x41), // 'acsp' signature broken
      jpeg.subarray(0, second!.start + 100), // truncated inside a segment
    ]) {
      expect(await readIccProfile(bad, 'image/jpeg')).toBeUndefined();
    }
  });

  it('ignores a damaged PNG iCCP: bad CRC, unknown compression, broken zlib, no name, or a bomb', async () => {
    const png = await encoded({ type: 'image/png', quality: 100, lossless: true });
    const iccp = (data: Uint8Array) => make.insertPngChunk(png, 'iCCP', data);
    const named = (rest: Uint8Array) => concatBytes([ascii('icc\0'), rest]);
    expect(
      await readIccProfile(iccp(named(concatBytes([Uint8Array.of(0), deflateSync(p3Profile)]))), 'image/png'),
    ).toEqual(p3Profile);

    const badCrc = iccp(named(concatBytes([Uint8Array.of(0), deflateSync(p3Profile)])));
    badCrc[33 + 8 + 4 + 10]! ^= 0xff; // inside the zlib data, so only the CRC catches it
    const zlib = deflateSync(p3Profile);
    for (const bad of [
      badCrc,
      iccp(named(concatBytes([Uint8Array.of(1), zlib]))), // compression method 1
      iccp(named(concatBytes([Uint8Array.of(0), zlib.subarray(0, zlib.length - 30)]))), // truncated stream
      iccp(named(concatBytes([Uint8Array.of(0), make.garbage(300)]))),
      iccp(concatBytes([Uint8Array.of(0, 0), zlib])), // empty name
      iccp(concatBytes([ascii('x'.repeat(100)), Uint8Array.of(0, 0), zlib])), // name longer than 79
      iccp(named(concatBytes([Uint8Array.of(0), deflateSync(new Uint8Array(20_000_000))]))), // inflates to 20 MB
    ]) {
      expect(await readIccProfile(bad, 'image/png')).toBeUndefined();
    }
  });

  it('reads a WebP ICCP chunk only when VP8X announces it', async () => {
    const webp = await make.toBytes(p3(64, 48).webp());
    const unannounced = webp.slice();
    unannounced[20]! &= ~0x20;
    expect(await readIccProfile(unannounced, 'image/webp')).toBeUndefined();
    const overlong = webp.slice();
    new DataView(overlong.buffer).setUint32(34, 0x7fffffff, true); // the ICCP length runs past the file
    expect(await readIccProfile(overlong, 'image/webp')).toBeUndefined();
  });

  it('never throws on damaged files: truncations and random byte changes in the headers', async () => {
    const next = make.random(11);
    const samples = [
      ['image/jpeg', await make.toBytes(p3(64, 48).jpeg())],
      ['image/png', await make.toBytes(p3(64, 48).png())],
      ['image/webp', await make.toBytes(p3(64, 48).webp())],
    ] as const;
    let found = 0;
    for (const [type, bytes] of samples) {
      for (let round = 0; round < 300; round++) {
        const damaged = round % 2 === 0 ? bytes.subarray(0, Math.floor(next() * bytes.length)) : bytes.slice();
        if (round % 2 === 1)
          for (let flips = 0; flips < 4; flips++)
            damaged[Math.floor(next() * Math.min(1200, damaged.length))] = Math.floor(next() * 256);
        const profile = await readIccProfile(damaged, type);
        // None, or a well-formed one: never a throw, never a profile without its signature.
        expect(profile === undefined ? 'none' : asciiOf(profile.subarray(36, 40))).toMatch(/^(none|acsp)$/);
        found += profile === undefined ? 0 : 1;
      }
    }
    // Damage that spares the profile leaves it readable: both outcomes were seen.
    expect(found).toBeGreaterThan(0);
    expect(found).toBeLessThan(samples.length * 300);
  });
});

describe('embedIccProfile', () => {
  const encodings: Array<[string, Encoding, boolean]> = [
    ['JPEG', { type: 'image/jpeg', quality: 85, lossless: false }, false],
    ['PNG', { type: 'image/png', quality: 100, lossless: true }, false],
    ['simple lossy WebP (VP8)', { type: 'image/webp', quality: 85, lossless: false }, false],
    ['simple lossless WebP (VP8L)', { type: 'image/webp', quality: 100, lossless: true }, false],
    ['lossless WebP with alpha (VP8L)', { type: 'image/webp', quality: 100, lossless: true }, true],
    ['extended lossy WebP with alpha (VP8X + ALPH)', { type: 'image/webp', quality: 85, lossless: false }, true],
  ];
  for (const [name, encoding, alpha] of encodings) {
    it(`puts the profile into our ${name} where sharp finds it, and the image still decodes the same`, async () => {
      const plain = await encoded(encoding, alpha);
      const tagged = await embedIccProfile(plain, encoding.type, p3Profile);
      expect(await iccOf(tagged)).toEqual(p3Profile);
      expect(await readIccProfile(tagged, encoding.type)).toEqual(p3Profile);
      const facts = async (bytes: Uint8Array) => {
        const { format, width, height, hasAlpha } = await sharp(bytes).metadata();
        return { format, width, height, hasAlpha };
      };
      expect(await facts(tagged)).toEqual(await facts(plain));
      // Unconverted, the stored pixels are exactly the untagged file's.
      const raw = async (bytes: Uint8Array) =>
        new Uint8Array(await sharp(bytes, { ignoreIcc: true }).ensureAlpha().raw().toBuffer());
      expect(await raw(tagged)).toEqual(await raw(plain));
    });
  }

  it('replaces a profile already there instead of adding a second', async () => {
    const other = largeProfile(1000);
    for (const [type, encoding, tag] of [
      ['image/jpeg', { type: 'image/jpeg', quality: 85, lossless: false }, 'ICC_PROFILE'],
      ['image/png', { type: 'image/png', quality: 100, lossless: true }, 'iCCP'],
      ['image/webp', { type: 'image/webp', quality: 85, lossless: false }, 'ICCP'],
    ] as const) {
      const once = await embedIccProfile(await encoded(encoding), type, other);
      const twice = await embedIccProfile(once, type, p3Profile);
      expect(await readIccProfile(twice, type)).toEqual(p3Profile);
      expect(occurrences(twice, tag), type).toBe(1);
    }
  });

  it('writes the PNG iCCP as a zlib stream that zlib and sharp read back, over several stored blocks', async () => {
    const profile = largeProfile(150_000);
    const png = await embedIccProfile(
      await encoded({ type: 'image/png', quality: 100, lossless: true }),
      'image/png',
      profile,
    );
    expect(asciiOf(png.subarray(37, 41))).toBe('iCCP'); // right after IHDR
    const length = new DataView(png.buffer, png.byteOffset).getUint32(33);
    const data = png.subarray(41, 41 + length);
    const nameEnd = data.indexOf(0);
    expect(data[nameEnd + 1]).toBe(0); // compression method 0
    expect(new Uint8Array(inflateSync(data.subarray(nameEnd + 2)))).toEqual(profile);
    expect(make.crc32(png.subarray(37, 41 + length))).toBe(
      new DataView(png.buffer, png.byteOffset).getUint32(41 + length),
    );
    expect(await iccOf(png)).toEqual(profile);
  });

  it('splits a JPEG profile into segments of at most 65,519 bytes, right after APP0', async () => {
    const profile = largeProfile(140_000);
    const jpeg = await embedIccProfile(
      await encoded({ type: 'image/jpeg', quality: 85, lossless: false }),
      'image/jpeg',
      profile,
    );
    expect(Array.from(jpeg.subarray(2, 4))).toEqual([0xff, 0xe0]);
    const segments = iccSegments(jpeg);
    expect(segments[0]!.start).toBe(4 + ((jpeg[4]! << 8) | jpeg[5]!));
    expect(segments.map((segment) => segment.end - segment.start - 18)).toEqual([65_519, 65_519, 140_000 - 2 * 65_519]);
    expect(await iccOf(jpeg)).toEqual(profile);
  });
});

describe('process keeps the ICC profile of re-encoded images', () => {
  it('a 4000×3000 Display P3 JPEG (iPhone) → 2000×1500 JPEG with the same profile, rendering like the source', {
    timeout: 60_000,
  }, async () => {
    const input = await make.toBytes((await p3WithRedBlock(4000, 3000)).jpeg({ quality: 90 }));
    const { result, decoded, difference } = await fitAndRender(input, {});
    expect(result).toMatchObject({ mediaType: 'image/jpeg', width: 2000, height: 1500, reencoded: true });
    expect(await iccOf(result.data)).toEqual(p3Profile);
    expect(difference).toBeLessThan(3);
    // Pure red stays pure red once colour-managed (without the profile it reads as about 234,51,35).
    const red = Array.from(decoded.data.subarray((100 * 2000 + 100) * 4, (100 * 2000 + 100) * 4 + 3));
    expect(Math.abs(red[0]! - 255) + red[1]! + Math.abs(red[2]! - 3)).toBeLessThan(12);
  });

  it('a P3 PNG → resized PNG with the profile', async () => {
    const input = await make.toBytes((await p3WithRedBlock(600, 400)).png());
    const { result, difference } = await fitAndRender(input, { maxEdge: 300 });
    expect(result).toMatchObject({ mediaType: 'image/png', width: 300, height: 200 });
    expect(await iccOf(result.data)).toEqual(p3Profile);
    expect(difference).toBeLessThan(3);
  });

  it('a P3 PNG converted to JPEG to fit maxBytes keeps the profile', async () => {
    const input = await make.toBytes(p3(800, 600).png());
    const { result, difference } = await fitAndRender(input, { maxEdge: 700, maxBytes: 120_000 });
    expect(result.mediaType).toBe('image/jpeg');
    expect(result.steps).toContain('converted');
    expect(result.bytes).toBeLessThanOrEqual(120_000);
    expect(await iccOf(result.data)).toEqual(p3Profile);
    expect(difference).toBeLessThan(4);
  });

  it('a P3 WebP → resized WebP with the profile, and converted for a provider without WebP', async () => {
    // Lossy: a lossless WebP is re-encoded as PNG (pipeline/output-encoding.ts), which carries the profile too.
    const input = await make.toBytes((await p3WithRedBlock(600, 400)).webp({ quality: 95 }));
    const webp = await fitAndRender(input, { maxEdge: 300 });
    expect(webp.result.mediaType).toBe('image/webp');
    expect(await iccOf(webp.result.data)).toEqual(p3Profile);
    expect(webp.difference).toBeLessThan(4);
    const converted = await fitAndRender(input, { preset: 'ollama', maxEdge: 300 });
    expect(converted.result.steps).toContain('converted');
    expect(await iccOf(converted.result.data)).toEqual(p3Profile);
    expect(converted.difference).toBeLessThan(4);
  });

  it('drops the profile, silently, when carrying it would break maxBytes', async () => {
    const plain = await make.toBytes(make.fromPixels(make.naturalPixels(400, 300, { seed: 4 })).jpeg());
    const input = await embedIccProfile(plain, 'image/jpeg', largeProfile(30_000));
    const roomy = await fit(input, { maxEdge: 200 });
    expect((await iccOf(roomy.data))?.length).toBe(30_000);
    const tight = await fit(input, { maxEdge: 200, maxBytes: roomy.bytes - 1 });
    expect(await iccOf(tight.data)).toBeUndefined();
    expect(tight.bytes).toBeLessThanOrEqual(roomy.bytes - 1);
    expect(tight).toMatchObject({ mediaType: 'image/jpeg', width: 200, height: 150, steps: ['resized'] });
  });

  it('keeps a display profile at a tight maxBytes: the fit leaves room for it instead of dropping it', async () => {
    const input = await make.toBytes(p3(1000, 750, 4).jpeg());
    const roomy = await fit(input, { maxEdge: 500 });
    expect(await iccOf(roomy.data)).toEqual(p3Profile);
    // One byte under what the picture and its profile took: the picture is fitted into what the profile leaves.
    const tight = await fit(input, { maxEdge: 500, maxBytes: roomy.bytes - 1 });
    expect(await iccOf(tight.data)).toEqual(p3Profile);
    expect(tight.bytes).toBeLessThanOrEqual(roomy.bytes - 1);
    expect(tight).toMatchObject({ mediaType: 'image/jpeg', width: 500, height: 375 });
    expect(tight.steps).toEqual(['resized', 'quality-reduced']);
  });

  it('reserves at least the bytes each writer adds for a profile (exactly, for JPEG and PNG)', async () => {
    for (const [size, type] of [
      [p3Profile.length, 'image/jpeg'],
      [150_000, 'image/jpeg'],
      [p3Profile.length, 'image/png'],
      [150_000, 'image/png'],
      [p3Profile.length, 'image/webp'],
      [30_001, 'image/webp'],
    ] as const) {
      const profile = size === p3Profile.length ? p3Profile : largeProfile(size);
      const plain = await encoded({ type, quality: 85, lossless: type === 'image/png' });
      const added = embedIccProfile(plain, type, profile).byteLength - plain.byteLength;
      const reserved = writerOf(type).iccProfileBytes(profile);
      expect(reserved, `${type}, ${size} bytes`).toBeGreaterThanOrEqual(added);
      if (type !== 'image/webp') expect(reserved, `${type}, ${size} bytes`).toBe(added);
      else expect(reserved - added, `${type}, ${size} bytes`).toBeLessThanOrEqual(18); // the VP8X a simple file gains
    }
  });

  it('does not carry a CMYK profile into the RGB output', async () => {
    const cmykProfile = largeProfile(2000);
    cmykProfile.set(ascii('CMYK'), 16);
    const input = await embedIccProfile(await make.photoJpeg({ cmyk: true }), 'image/jpeg', cmykProfile);
    expect(await readIccProfile(input, 'image/jpeg')).toEqual(cmykProfile);
    const result = await fit(input);
    expect(result.reencoded).toBe(true);
    expect(await readIccProfile(result.data, 'image/jpeg')).toBeUndefined();
  });

  it('a P3 TIFF (lossless: PNG) and a P3 AVIF (JPEG), as scanners and avifenc tag them, keep the profile', {
    timeout: 60_000,
  }, async () => {
    const tiff = await make.toBytes((await p3WithRedBlock(600, 400)).tiff({ compression: 'lzw' }));
    const p3Png = await make.toBytes((await p3WithRedBlock(600, 400)).png());
    const avif = encodePngFile('avifenc', p3Png, ['--min', '10', '--max', '20']);
    for (const [input, type, output] of [
      [tiff, 'image/tiff', 'image/png'],
      [avif, 'image/avif', 'image/jpeg'],
    ] as const) {
      expect(await readIccProfile(input, type), type).toEqual(p3Profile);
      const result = await fit(input, { maxEdge: 300 });
      expect(result, type).toMatchObject({ mediaType: output, width: 300, height: 200, reencoded: true });
      expect(await iccOf(result.data), type).toEqual(p3Profile);
      // Rendered with the profile, the red block is pure red again (untagged, it reads as about 234,51,35).
      const decoded = await decodeIndependently(result.data);
      const red = Array.from(decoded.data.subarray((20 * 300 + 20) * 4, (20 * 300 + 20) * 4 + 3));
      expect(Math.abs(red[0]! - 255) + red[1]! + red[2]!, type).toBeLessThan(24);
    }
  });

  it("reads a HEIC's colr profile (an iPhone photo is Display P3), and none from a damaged container", async () => {
    const heic = encodePngFile('heif-enc', await make.toBytes(p3(64, 48).png()));
    expect(await readIccProfile(heic, 'image/heic')).toEqual(p3Profile);
    expect(await readIccProfile(heic.subarray(0, 40), 'image/heic')).toBeUndefined();
    const tiff = await make.toBytes(p3(64, 48).tiff());
    expect(await readIccProfile(tiff.subarray(0, 12), 'image/tiff')).toBeUndefined();
  });

  it('passes a fitting P3 JPEG through untouched, profile and all', async () => {
    const input = await make.toBytes(p3(320, 240).jpeg());
    const result = await fit(input);
    expect(result.data).toBe(input);
  });
});

// ---- helpers

/** Our own encoder's output for a small picture (optionally with a transparent corner). */
async function encoded(encoding: Encoding, alpha = false): Promise<Uint8Array> {
  const pixels = make.naturalPixels(40, 30, { channels: 4, seed: 9 });
  for (let i = 3; i < pixels.data.length; i += 4) pixels.data[i] = alpha && i < 40 * 10 * 4 ? 0 : 255;
  const raster: Raster = { data: pixels.data, width: 40, height: 30 };
  return encodeRaster(raster, encoding);
}

/** The P3 profile padded with zeros to `size` bytes, its declared size updated: valid, just big. */
function largeProfile(size: number): Uint8Array {
  const profile = new Uint8Array(size);
  profile.set(p3Profile);
  new DataView(profile.buffer).setUint32(0, size);
  for (let i = p3Profile.length; i < size; i++) profile[i] = i & 0xff;
  return profile;
}

/** Where the APP2 ICC_PROFILE segments of a JPEG are, in stored order. */
function iccSegments(jpeg: Uint8Array): Array<{ start: number; end: number }> {
  const segments: Array<{ start: number; end: number }> = [];
  let offset = 2;
  while (jpeg[offset] === 0xff && jpeg[offset + 1] !== 0xda) {
    const end = offset + 2 + ((jpeg[offset + 2]! << 8) | jpeg[offset + 3]!);
    if (jpeg[offset + 1] === 0xe2 && asciiOf(jpeg.subarray(offset + 4, offset + 16)) === 'ICC_PROFILE\0')
      segments.push({ start: offset, end });
    offset = end;
  }
  return segments;
}

function asciiOf(bytes: Uint8Array): string {
  return new TextDecoder('latin1').decode(bytes);
}

function occurrences(bytes: Uint8Array, text: string): number {
  return asciiOf(bytes).split(text).length - 1;
}

function ascii(text: string): Uint8Array {
  return Uint8Array.from(text, (character) => character.charCodeAt(0));
}
