import { describe, expect, it, vi } from 'vitest';
import sharp from 'sharp';
import { probe } from './probe.js';
import { MediaError } from './errors.js';
import * as make from '../../../test/fixtures/make.js';
import type { BmpInfo, JpegInfo, PngInfo, ProbeResult, WebpInfo } from './types.js';
import { failsWith } from '../../../test/support/typed-errors.js';

/** Probes, and narrows the result to the type the test expects (failing when it is another). */
function probeOf<T extends ProbeResult>(mediaType: T['mediaType']) {
  return async (bytes: Uint8Array): Promise<T> => {
    const info = await probe(bytes);
    if (info.mediaType !== mediaType) throw new Error(`expected ${mediaType}, probe said ${info.mediaType}`);
    return info as T; // checked just above; TypeScript cannot narrow a generic union
  };
}
const probeJpeg = probeOf<JpegInfo>('image/jpeg');
const probePng = probeOf<PngInfo>('image/png');
const probeWebp = probeOf<WebpInfo>('image/webp');
const probeBmp = probeOf<BmpInfo>('image/bmp');

describe('probe: JPEG', () => {
  it('reads size, components, precision and baseline/progressive from the frame header', async () => {
    const baseline = await probe(await make.photoJpeg({ width: 321, height: 123 }));
    expect(baseline).toEqual({
      mediaType: 'image/jpeg',
      bytes: expect.any(Number),
      width: 321,
      height: 123,
      orientation: 1,
      frames: 1,
      hasAlpha: false,
      bitDepth: 8,
      components: 3,
      progressive: false,
      complete: true,
    });
    expect((await probeJpeg(await make.photoJpeg({ progressive: true }))).progressive).toBe(true);
    expect((await probeJpeg(await make.photoJpeg({ cmyk: true }))).components).toBe(4);
    expect((await probeJpeg(await make.photoJpeg({ gray: true }))).components).toBe(1);
  });

  it.each([1, 2, 3, 4, 5, 6, 7, 8])('reads EXIF orientation %i from APP1, size as stored', async (orientation) => {
    const info = await probe(await make.photoJpeg({ width: 64, height: 48, orientation }));
    expect(info.orientation).toBe(orientation);
    expect([info.width, info.height]).toEqual([64, 48]);
  });

  it('agrees with sharp on a real file', async () => {
    const jpeg = await make.photoJpeg({ width: 200, height: 100, orientation: 6, progressive: true });
    const [ours, theirs] = [await probeJpeg(jpeg), await sharp(jpeg).metadata()];
    expect([ours.width, ours.height, ours.orientation, ours.progressive]).toEqual([
      theirs.width,
      theirs.height,
      theirs.orientation,
      theirs.isProgressive,
    ]);
  });

  it('skips fill bytes and standalone markers between segments', async () => {
    const jpeg = await make.photoJpeg({ width: 40, height: 30 });
    const padded = new Uint8Array(jpeg.length + 4);
    padded.set(jpeg.subarray(0, 2));
    padded.set([0xff, 0xff, 0xff, 0xff], 2); // fill bytes before the next marker
    padded.set(jpeg.subarray(2), 6);
    // After the added 0xFFs the original 0xFF of the next marker follows: still one marker.
    expect((await probe(padded)).width).toBe(40);
  });

  it('steps over stray bytes between segments, as libjpeg does', async () => {
    const jpeg = await make.photoJpeg({ width: 40, height: 30, orientation: 8 });
    const app0End = 4 + ((jpeg[4]! << 8) | jpeg[5]!);
    const padded = new Uint8Array(jpeg.length + 5);
    padded.set(jpeg.subarray(0, app0End));
    padded.set([0x00, 0x00, 0xff, 0x00, 0x0a], app0End);
    padded.set(jpeg.subarray(app0End), app0End + 5);
    expect(await probe(padded)).toMatchObject({ width: 40, height: 30, orientation: 8 });
  });

  it('names lossless and hierarchical JPEGs as unsupported (no browser or provider decodes them)', async () => {
    const lossless = make.jpegBomb(16, 16);
    lossless[3] = 0xc3; // SOF0 → SOF3
    const error = await failsWith(probe(lossless), MediaError, 'E_UNSUPPORTED');
    expect(error.message).toContain('lossless');
    const arithmetic = make.jpegBomb(16, 16);
    arithmetic[3] = 0xc9; // sequential arithmetic: decodable by libjpeg-turbo, so probed normally
    expect((await probe(arithmetic)).width).toBe(16);
  });

  it('refuses a file that ends before any image data', async () => {
    const jpeg = await make.photoJpeg({ width: 40, height: 30 });
    const sos = jpeg.findIndex((byte, index) => byte === 0xff && jpeg[index + 1] === 0xda);
    await failsWith(probe(jpeg.subarray(0, sos)), MediaError, 'E_CORRUPT');
    await failsWith(probe(jpeg.subarray(0, 3)), MediaError, 'E_CORRUPT');
  });
});

describe('probe: PNG', () => {
  it('reads IHDR facts for every colour type', async () => {
    const plain = await probe(await make.screenshotPng({ width: 333, height: 111 }));
    expect(plain).toEqual({
      mediaType: 'image/png',
      bytes: expect.any(Number),
      width: 333,
      height: 111,
      orientation: 1,
      frames: 1,
      hasAlpha: false,
      bitDepth: 8,
      interlaced: false,
    });
    expect((await probe(await make.screenshotPng({ alpha: true }))).hasAlpha).toBe(true);
    expect((await probe(await make.screenshotPng({ palette: true }))).hasAlpha).toBe(false);
    expect((await probe(await make.screenshotPng({ palette: true, alpha: true }))).hasAlpha).toBe(true); // tRNS
    expect((await probePng(await make.screenshotPng({ bitDepth16: true }))).bitDepth).toBe(16);
    expect((await probePng(await make.screenshotPng({ gray: true, bitDepth16: true }))).bitDepth).toBe(16);
    expect((await probePng(await make.screenshotPng({ interlaced: true }))).interlaced).toBe(true);
    expect((await probe(await make.screenshotPng({ gray: true }))).hasAlpha).toBe(false);
    expect((await probe(await make.screenshotPng({ grayAlpha: true }))).hasAlpha).toBe(true);
  });

  it('reads the palette PNG colour type sharp wrote', async () => {
    const png = await make.screenshotPng({ palette: true });
    expect(png[25]).toBe(3); // colour type byte of IHDR
    expect((await sharp(png).metadata()).isPalette).toBe(true);
  });

  it.each([1, 3, 6, 8])('reads eXIf orientation %i', async (orientation) => {
    expect((await probe(await make.screenshotPng({ orientation }))).orientation).toBe(orientation);
  });

  it('counts APNG frames from acTL', async () => {
    const actl = new Uint8Array(8);
    new DataView(actl.buffer).setUint32(0, 5);
    const apng = make.insertPngChunk(await make.screenshotPng({ width: 20, height: 10 }), 'acTL', actl);
    expect((await probe(apng)).frames).toBe(5);
  });

  it('refuses a chunk chain that does not reach IEND', async () => {
    const png = await make.screenshotPng({ width: 50, height: 50 });
    await failsWith(probe(png.subarray(0, png.length - 12)), MediaError, 'E_CORRUPT'); // IEND cut
    await failsWith(probe(png.subarray(0, png.length - 30)), MediaError, 'E_CORRUPT'); // IDAT cut
    await failsWith(probe(png.subarray(0, 20)), MediaError, 'E_CORRUPT'); // IHDR cut
  });

  it("names Apple's CgBI PNGs as unsupported", async () => {
    const png = await make.screenshotPng({ width: 8, height: 8 });
    const cgbi = new Uint8Array(png.length + 16);
    cgbi.set(png.subarray(0, 8));
    cgbi.set(make.pngChunk('CgBI', Uint8Array.from([0x50, 0x00, 0x20, 0x06])), 8);
    cgbi.set(png.subarray(8), 24);
    await failsWith(probe(cgbi), MediaError, 'E_UNSUPPORTED');
  });

  it('refuses impossible IHDR values', async () => {
    const bomb = make.pngBomb(10, 10);
    const zero = bomb.slice();
    zero.fill(0, 16, 20);
    await failsWith(probe(zero), MediaError, 'E_CORRUPT');
    const depth = bomb.slice();
    depth[24] = 3; // RGB with 3 bits per sample
    await failsWith(probe(depth), MediaError, 'E_CORRUPT');
  });
});

describe('probe: WebP', () => {
  it('reads lossy, lossy+alpha and lossless headers', async () => {
    expect(await probe(await make.webp({ width: 121, height: 81 }))).toEqual({
      mediaType: 'image/webp',
      bytes: expect.any(Number),
      width: 121,
      height: 81,
      orientation: 1,
      frames: 1,
      hasAlpha: false,
      bitDepth: 8,
      lossless: false,
    });
    expect((await probe(await make.webp({ alpha: true }))).hasAlpha).toBe(true);
    const lossless = await probeWebp(await make.webp({ lossless: true, alpha: true, width: 99, height: 45 }));
    expect([lossless.width, lossless.height, lossless.hasAlpha, lossless.lossless]).toEqual([99, 45, true, true]);
    expect((await probe(await make.webp({ lossless: true }))).hasAlpha).toBe(false);
  });

  it('counts ANMF frames and sees transparency around a cropped first frame', async () => {
    const animated = await probe(await make.webp({ animated: true, frames: 4 }));
    expect([animated.frames, animated.width, animated.height, animated.hasAlpha]).toEqual([4, 120, 80, false]);
    expect((await probe(await make.webp({ animated: true, alpha: true }))).hasAlpha).toBe(true);
    expect((await probe(await make.webp({ animated: true, alpha: true, alphaLayout: 'strip' }))).hasAlpha).toBe(true);
  });

  it('reads the EXIF chunk orientation', async () => {
    expect((await probe(await make.webp({ orientation: 6 }))).orientation).toBe(6);
  });

  it('refuses a truncated RIFF container', async () => {
    const webp = await make.webp();
    await failsWith(probe(webp.subarray(0, webp.length - 10)), MediaError, 'E_CORRUPT');
    await failsWith(probe(webp.subarray(0, 12)), MediaError, 'E_CORRUPT');
  });
});

describe('probe: GIF', () => {
  it('counts frames without decoding and reads GCE transparency', async () => {
    expect(await probe(await make.gif({ width: 70, height: 50 }))).toEqual({
      mediaType: 'image/gif',
      bytes: expect.any(Number),
      width: 70,
      height: 50,
      orientation: 1,
      frames: 1,
      hasAlpha: false,
      bitDepth: 8,
    });
    const animated = await probe(await make.gif({ animated: true, transparent: true, frames: 5 }));
    expect([animated.frames, animated.hasAlpha]).toEqual([5, true]);
    expect((await sharp(await make.gif({ animated: true, frames: 5 })).metadata()).pages).toBe(5);
  });

  it('judges alpha by the first frame: delta-encoded later frames do not make an opaque animation transparent', async () => {
    const opaque = await make.gif({ animated: true, frames: 4 });
    expect((await probe(opaque)).hasAlpha).toBe(false);
    // The encoder did mark later frames transparent (unchanged pixels), so this checks the first-frame rule.
    const transparentGces = opaque.filter(
      (byte, at) => byte === 0x21 && opaque[at + 1] === 0xf9 && opaque[at + 2] === 4 && (opaque[at + 3]! & 1) === 1,
    );
    expect(transparentGces.length).toBeGreaterThan(0);
    expect((await probe(await make.gif({ transparent: true }))).hasAlpha).toBe(true);
  });

  it('keeps the complete frames of a cut animation, refuses a cut first frame', async () => {
    const gif = await make.gif({ animated: true, frames: 4 });
    const cut = await probe(gif.subarray(0, gif.length - 40));
    expect(cut.frames).toBeGreaterThanOrEqual(1);
    expect(cut.frames).toBeLessThan(4);
    await failsWith(probe(gif.subarray(0, 40)), MediaError, 'E_CORRUPT');
  });
});

describe('probe: BMP', () => {
  it('reads size, depth and orientation-free facts for each header kind', async () => {
    const pixels = make.naturalPixels(13, 7, { channels: 4 });
    expect(await probe(make.encodeBmp(pixels))).toEqual({
      mediaType: 'image/bmp',
      bytes: expect.any(Number),
      width: 13,
      height: 7,
      orientation: 1,
      frames: 1,
      hasAlpha: false,
      bitDepth: 8,
    });
    expect((await probeBmp(make.encodeBmp(pixels, { bitsPerPixel: 4 }))).bitDepth).toBe(4);
    expect((await probeBmp(make.encodeBmp(pixels, { bitsPerPixel: 16 }))).bitDepth).toBe(5);
    expect((await probeBmp(make.encodeBmp(pixels, { bitsPerPixel: 16, bitfields: true }))).bitDepth).toBe(6);
    expect((await probeBmp(make.encodeBmp(pixels, { topDown: true }))).height).toBe(7);
    expect((await probeBmp(make.encodeBmp(pixels, { coreHeader: true, bitsPerPixel: 8 }))).bitDepth).toBe(8);
    expect((await probe(make.encodeBmp(pixels, { bitsPerPixel: 32 }))).hasAlpha).toBe(true);
    expect((await probe(make.encodeBmp(pixels, { bitsPerPixel: 32, zeroAlpha: true }))).hasAlpha).toBe(false);
    expect((await probe(make.encodeBmp(pixels, { bitsPerPixel: 32, bitfields: true }))).hasAlpha).toBe(true);
  });
});

describe('probe: decompression bombs are reported from the header, without starting a codec', () => {
  it.each([
    ['PNG 65536x65536', () => make.pngBomb(65536, 65536), 65536, 65536],
    ['PNG 50000x50000', () => make.pngBomb(50000, 50000), 50000, 50000],
    ['JPEG 50000x50000', () => make.jpegBomb(50000, 50000), 50000, 50000],
    ['JPEG 65535x65535', () => make.jpegBomb(65535, 65535), 65535, 65535],
    ['GIF 65535x65535', () => make.gifBomb(65535, 65535), 65535, 65535],
  ])('%s', async (_, build, width, height) => {
    const bytes = build();
    const instantiate = vi.spyOn(WebAssembly, 'instantiate');
    const info = await probe(bytes);
    expect(instantiate).not.toHaveBeenCalled(); // header facts only: no decoder instance, no pixel buffer
    instantiate.mockRestore();
    expect([info.width, info.height]).toEqual([width, height]);
    expect(bytes.length).toBeLessThan(100);
  });

  it('a BMP header claiming 50000x50000', async () => {
    const bmp = make.encodeBmp(make.naturalPixels(2, 2));
    new DataView(bmp.buffer).setInt32(18, 50000, true);
    new DataView(bmp.buffer).setInt32(22, 50000, true);
    const info = await probe(bmp);
    expect([info.width, info.height]).toEqual([50000, 50000]);
  });
});

describe('probe: formats that are named, not processed', () => {
  it('TIFF with size, depth and page count from its IFDs', async () => {
    const tiff = new Uint8Array(
      await sharp({ create: { width: 37, height: 21, channels: 3, background: '#123' } })
        .tiff()
        .toBuffer(),
    );
    expect(await probe(tiff)).toEqual({
      mediaType: 'image/tiff',
      bytes: tiff.length,
      width: 37,
      height: 21,
      orientation: 1,
      frames: 1,
      pages: 1,
      bitDepth: 8,
      hasAlpha: false,
      lossless: false,
    });
    // An IFD with no entries: no size.
    await failsWith(
      probe(Uint8Array.from([0x49, 0x49, 0x2a, 0x00, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0])),
      MediaError,
      'E_CORRUPT',
    );
  });

  it('AVIF with size from its item graph; a cut one is E_CORRUPT', async () => {
    const avif = new Uint8Array(
      await sharp({ create: { width: 40, height: 24, channels: 3, background: '#0f0' } })
        .avif({ effort: 0 })
        .toBuffer(),
    );
    expect(await probe(avif)).toEqual({
      mediaType: 'image/avif',
      bytes: avif.length,
      width: 40,
      height: 24,
      orientation: 1,
      frames: 1,
      hasAlpha: false,
      bitDepth: 8,
    });
    await failsWith(probe(avif.subarray(0, 40)), MediaError, 'E_CORRUPT');
  });

  it('ICO whose directory points past the end is E_CORRUPT (real icons: formats/ico/decode.test.ts)', async () => {
    const ico = Uint8Array.from([
      0, 0, 1, 0, 2, 0, 16, 16, 0, 0, 1, 0, 32, 0, 0, 1, 0, 0, 38, 0, 0, 0, 0, 0, 0, 0, 1, 0, 32, 0, 0, 4, 0, 0, 38, 1,
      0, 0,
    ]);
    await failsWith(probe(ico), MediaError, 'E_CORRUPT');
  });
});

describe('probe: unknown input', () => {
  it('says what it saw and what is supported', async () => {
    const error = await failsWith(probe(new TextEncoder().encode('hello, world')), MediaError, 'E_UNSUPPORTED');
    expect(error.message).toContain('68 65 6c 6c 6f');
    expect(error.message).toContain(
      'PNG, JPEG, GIF, WebP, BMP, TIFF, ICO/CUR, AVIF, HEIC/HEIF (with @glimpse/heif), SVG and PDF',
    );
    const empty = await failsWith(probe(new Uint8Array(0)), MediaError, 'E_UNSUPPORTED');
    expect(empty.message).toContain('empty');
    await failsWith(probe(make.garbage(10_000)), MediaError, 'E_UNSUPPORTED');
  });
});
