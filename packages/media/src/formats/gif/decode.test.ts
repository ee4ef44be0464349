import sharp, { type GifOptions } from 'sharp';
import { describe, expect, it, vi } from 'vitest';
import { MediaError, probe, process as fit } from '@glimpse/media';
import * as make from '../../../../../test/fixtures/make.js';
import { decodeGifFirstFrame } from './decode.js';
import { gif } from './format.js';
import { buildGif, encodeLzw, GREY, packCodes, type Rgb } from '../../../../../test/fixtures/gif-writer.js';
import { failsWith } from '../../../../../test/support/typed-errors.js';

/** Sharp's (libvips/libnsgif) RGBA decode of page 0: the reference every decode is held to. */
async function sharpFirstPage(bytes: Uint8Array) {
  const { data, info } = await sharp(bytes, { pages: 1, limitInputPixels: false })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height };
}

async function expectSameAsSharp(bytes: Uint8Array) {
  const ours = decodeGifFirstFrame(bytes);
  const theirs = await sharpFirstPage(bytes);
  expect([ours.raster.width, ours.raster.height]).toEqual([theirs.width, theirs.height]);
  expect(Buffer.from(ours.raster.data).equals(Buffer.from(theirs.data))).toBe(true);
  return ours;
}

/** Deterministic noise: 256 colours, so the LZW dictionary fills, hits 12-bit codes and clears. */
function noise(width: number, height: number, seed = 7): Uint8Array {
  const rgb = new Uint8Array(width * height * 3);
  let state = seed;
  for (let i = 0; i < rgb.length; i++) {
    state = (state * 1103515245 + 12345) >>> 0;
    rgb[i] = (state >>> 16) & 0xff;
  }
  return rgb;
}

async function sharpGif(width: number, height: number, options: GifOptions = {}): Promise<Uint8Array> {
  const gif = await sharp(noise(width, height), { raw: { width, height, channels: 3 } })
    .gif({ effort: 1, dither: 0, ...options })
    .toBuffer();
  return new Uint8Array(gif);
}

/** The first pixel whose alpha is 0, or the pixel count when there is none. */
function firstClearPixel(rgba: Uint8Array): number {
  for (let p = 0; p < rgba.length / 4; p++) if (rgba[p * 4 + 3] === 0) return p;
  return rgba.length / 4;
}

describe('GIF: decompression bombs refused from the header', () => {
  // A 10×10 logical screen holding a 60000×60000 image descriptor with a tiny LZW stream.
  const screenBomb = Uint8Array.from([
    ...new TextEncoder().encode('GIF89a'),
    10,
    0,
    10,
    0,
    0,
    0,
    0,
    0x2c,
    0,
    0,
    0,
    0,
    0x60,
    0xea,
    0x60,
    0xea,
    0,
    2,
    2,
    0x44,
    1,
    0,
    0x3b,
  ]);

  it('probe reports the first frame extent when it is larger than the screen', async () => {
    expect(await probe(screenBomb)).toMatchObject({ width: 60000, height: 60000, frames: 1 });
    const offset = buildGif({ width: 10, height: 10 }, GREY, [
      { left: 70_000 - 65_535, top: 0, width: 65_535, height: 1, indices: new Uint8Array(1) },
    ]);
    expect(await probe(offset)).toMatchObject({ width: 70_000 - 65_535 + 65_535, height: 10 });
  });

  it('process refuses a frame larger than its screen with E_TOO_MANY_PIXELS before decoding', async () => {
    // Refused from the header: the decoder never starts on the 3.6 gigapixels (that would take minutes).
    const decode = vi.spyOn(gif, 'decode');
    const error = await failsWith(() => fit(screenBomb), MediaError, 'E_TOO_MANY_PIXELS');
    expect(decode).not.toHaveBeenCalled();
    decode.mockRestore();
    expect(error.details).toMatchObject({ width: 60000, height: 60000 });
    // A side past 65,535 px is refused too, however few pixels it has.
    await failsWith(
      () =>
        fit(
          buildGif({ width: 10, height: 10 }, GREY, [
            { left: 60_000, width: 10_000, height: 1, indices: new Uint8Array(10_000) },
          ]),
        ),
      MediaError,
      'E_TOO_MANY_PIXELS',
    );
  });
});

describe('GIF: first frame decodes pixel-exactly like sharp', () => {
  it('a still whose LZW dictionary fills and clears', async () => {
    const { hasAlpha } = await expectSameAsSharp(await sharpGif(300, 200));
    expect(hasAlpha).toBe(false);
  });

  it('a transparent GIF (GCE transparent index)', async () => {
    const { hasAlpha, raster } = await expectSameAsSharp(await make.gif({ width: 90, height: 60, transparent: true }));
    expect(hasAlpha).toBe(true);
    expect(raster.data[3]).toBe(0); // the fixture's top-left quadrant is transparent
  });

  it('an interlaced GIF', async () => {
    const interlaced = await sharpGif(123, 77, { progressive: true });
    expect(interlaced[interlaced.indexOf(0x2c, 13 + 768) + 9]! & 0x40).toBe(0x40); // the interlace flag really is set
    await expectSameAsSharp(interlaced);
    await expectSameAsSharp(await sharpGif(5, 3, { progressive: true })); // fewer rows than the passes' steps
  });

  it("an animated GIF's first frame", async () => {
    const animated = await make.gif({ width: 100, height: 60, animated: true, frames: 3 });
    const { raster } = await expectSameAsSharp(animated);
    // Frame 0's red block is at the left; a later frame's is not.
    const at = (10 * 100 + 5) * 4;
    const [red, green, blue, alpha] = raster.data.subarray(at, at + 4);
    expect([red! > 200, green! < 40, blue! < 80, alpha]).toEqual([true, true, true, 255]);
  });

  it('a GIF whose first image carries a local colour table over a different global one', async () => {
    const width = 40;
    const height = 30;
    const indices = Uint8Array.from({ length: width * height }, (_, i) => (i * 7 + (i >> 3)) % 16);
    const local: Rgb[] = Array.from({ length: 16 }, (_, i) => [i * 16, 255 - i * 16, (i * 53) % 256]);
    const gif = buildGif({ width, height }, GREY.slice(0, 16), [{ width, height, indices, local }]);
    const { raster } = await expectSameAsSharp(gif);
    expect([...raster.data.subarray(4, 8)]).toEqual([...local[indices[1]!]!, 255]);
  });

  it('a frame offset inside the screen: transparent where it does not cover', async () => {
    const indices = Uint8Array.from({ length: 6 * 4 }, (_, i) => 1 + (i % 3));
    const gif = buildGif({ width: 10, height: 8 }, GREY.slice(0, 4), [
      { left: 3, top: 2, width: 6, height: 4, indices },
    ]);
    const { raster, hasAlpha } = decodeGifFirstFrame(gif);
    const theirs = await sharpFirstPage(gif);
    expect(hasAlpha).toBe(true);
    // libvips drops alpha when no frame declares a transparent index, so it shows the uncovered screen opaque black;
    // browsers (and we) show it clear. Inside the frame the pixels agree exactly.
    for (let p = 0; p < 10 * 8; p++) {
      const x = p % 10;
      const y = Math.floor(p / 10);
      const pixel = [...raster.data.subarray(p * 4, p * 4 + 4)];
      if (x >= 3 && x < 9 && y >= 2 && y < 6) expect(pixel).toEqual([...theirs.data.subarray(p * 4, p * 4 + 4)]);
      else expect(pixel).toEqual([0, 0, 0, 0]);
    }
  });
});

describe('GIF: frames larger than the screen and broken streams', () => {
  it('grows the canvas to the frame, matching what probe reports', async () => {
    const indices = Uint8Array.from({ length: 20 * 12 }, (_, i) => i % 200);
    const gif = buildGif({ width: 8, height: 8 }, GREY, [{ left: 4, top: 2, width: 20, height: 12, indices }]);
    const { raster } = decodeGifFirstFrame(gif);
    expect(await probe(gif)).toMatchObject({ width: raster.width, height: raster.height, hasAlpha: true });
    expect([raster.width, raster.height]).toEqual([24, 14]);
    for (let y = 0; y < 14; y++) {
      for (let x = 0; x < 24; x++) {
        const inside = x >= 4 && y >= 2;
        const grey = inside ? indices[(y - 2) * 20 + (x - 4)]! : 0;
        expect([...raster.data.subarray((y * 24 + x) * 4, (y * 24 + x) * 4 + 4)]).toEqual(
          inside ? [grey, grey, grey, 255] : [0, 0, 0, 0],
        );
      }
    }
  });

  it('a logical screen side over 2048 is bogus: the canvas is the extent of the first frame, as sharp decodes it', async () => {
    const indices = Uint8Array.from({ length: 40 * 24 }, (_, i) => i % 200);
    const gif = buildGif({ width: 32552, height: 24 }, GREY, [{ left: 0, top: 2048, width: 40, height: 24, indices }]);
    const { raster } = decodeGifFirstFrame(gif);
    expect([raster.width, raster.height]).toEqual([40, 2072]);
    expect(await probe(gif)).toMatchObject({ width: 40, height: 2072 });
    const metadata = await sharp(gif).metadata();
    expect([metadata.width, metadata.height]).toEqual([40, 2072]);
  });

  it('a stream that ends early leaves the rest transparent; one that says more stops at the frame end', async () => {
    const indices = Uint8Array.from({ length: 50 * 40 }, (_, i) => (i * 13) % 251);
    const full = encodeLzw(indices, 8, { endCode: false });
    const short = buildGif({ width: 50, height: 40 }, GREY, [
      { width: 50, height: 40, indices, lzw: full.subarray(0, Math.floor(full.length / 2)) },
    ]);
    const { raster, hasAlpha } = decodeGifFirstFrame(short);
    expect(hasAlpha).toBe(true);
    const firstClear = firstClearPixel(raster.data);
    expect(firstClear).toBeGreaterThan(100);
    expect(firstClear).toBeLessThan(50 * 40);
    for (let p = 0; p < firstClear; p++) expect(raster.data[p * 4]).toBe(indices[p]);
    for (let p = firstClear; p < 50 * 40; p++) expect(raster.data[p * 4 + 3]).toBe(0);

    const twice = encodeLzw(
      Uint8Array.from({ length: 2 * 50 * 40 }, (_, i) => indices[i % indices.length]!),
      8,
    );
    const long = decodeGifFirstFrame(
      buildGif({ width: 50, height: 40 }, GREY, [{ width: 50, height: 40, indices, lzw: twice }]),
    );
    expect(long.hasAlpha).toBe(false);
    expect(Array.from({ length: 50 * 40 }, (_, p) => long.raster.data[p * 4])).toEqual([...indices]);
  });

  it('a file cut inside the LZW data: the decoder keeps what arrived, process refuses it as E_CORRUPT', async () => {
    const gif = await sharpGif(200, 100);
    const cut = gif.subarray(0, Math.floor(gif.length * 0.6));
    const { raster, hasAlpha } = decodeGifFirstFrame(cut);
    expect(hasAlpha).toBe(true);
    const whole = await sharpFirstPage(gif);
    const arrived = firstClearPixel(raster.data);
    expect(arrived).toBeGreaterThan(200 * 10);
    expect(arrived).toBeLessThan(200 * 100);
    expect(
      Buffer.from(raster.data.subarray(0, arrived * 4)).equals(Buffer.from(whole.data.subarray(0, arrived * 4))),
    ).toBe(true);
    for (let p = arrived; p < 200 * 100; p++) expect(raster.data[p * 4 + 3]).toBe(0);
    await failsWith(() => fit(cut), MediaError, 'E_CORRUPT');
  });

  it('decodes a frame with no colour table at all like libnsgif (sharp): index 0 black, 1 white', async () => {
    const indices = Uint8Array.from({ length: 16 }, (_, i) => i % 2);
    const gif = buildGif({ width: 4, height: 4 }, undefined, [{ width: 4, height: 4, indices }]);
    const { raster } = decodeGifFirstFrame(gif);
    const { data } = await sharp(gif).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    expect(Array.from(raster.data)).toEqual(Array.from(data));
    expect(Array.from(raster.data.subarray(0, 8))).toEqual([0, 0, 0, 255, 255, 255, 255, 255]);
  });

  it('decodes LZW minimum code sizes up to 11, as browsers and libnsgif do (sharp agrees on the pixels)', async () => {
    const indices = Uint8Array.from({ length: 64 }, (_, i) => (i * 7) % 4);
    const colours: Rgb[] = [
      [255, 0, 0],
      [0, 255, 0],
      [0, 0, 255],
      [255, 255, 255],
    ];
    for (const minCodeSize of [2, 9, 11]) {
      const gif = buildGif({ width: 8, height: 8 }, colours, [{ width: 8, height: 8, indices, minCodeSize }]);
      const { data } = await sharp(gif).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
      expect(Array.from(decodeGifFirstFrame(gif).raster.data), `min code size ${minCodeSize}`).toEqual(
        Array.from(data),
      );
    }
  });

  it('malformed data is E_CORRUPT, never a RangeError', async () => {
    const indices = new Uint8Array(16);
    const frame = { width: 4, height: 4, indices };
    // 9-bit codes: clear (256), then a code the dictionary does not hold yet.
    for (const codes of [
      [256, 300],
      [256, 5, 300],
    ]) {
      await failsWith(
        () => decodeGifFirstFrame(buildGif({ width: 4, height: 4 }, GREY, [{ ...frame, lzw: packCodes(codes, 9) }])),
        MediaError,
        'E_CORRUPT',
      );
    }
    await failsWith(
      () =>
        decodeGifFirstFrame(
          buildGif({ width: 4, height: 4 }, GREY, [{ ...frame, minCodeSize: 12, lzw: new Uint8Array(4) }]),
        ),
      MediaError,
      'E_CORRUPT',
    );
    await failsWith(
      () => decodeGifFirstFrame(buildGif({ width: 4, height: 4 }, GREY, []).subarray(0, 12)),
      MediaError,
      'E_CORRUPT',
    );
    await failsWith(() => decodeGifFirstFrame(buildGif({ width: 4, height: 4 }, GREY, [])), MediaError, 'E_CORRUPT');
  });

  it('cut at any offset or with any byte flipped: a raster of the size probe reports, or E_CORRUPT, nothing else', async () => {
    const fixtures = [
      await sharpGif(40, 30, { progressive: true }),
      await make.gif({ width: 40, height: 24, transparent: true }),
      buildGif({ width: 12, height: 9 }, GREY.slice(0, 8), [
        {
          left: 2,
          top: 1,
          width: 9,
          height: 7,
          indices: Uint8Array.from({ length: 63 }, (_, i) => i % 8),
          local: GREY.slice(8, 16),
          transparentIndex: 3,
        },
      ]),
    ];
    let state = 11;
    const random = (below: number) => ((state = (state * 1103515245 + 12345) >>> 0) >>> 8) % below;
    for (const gif of fixtures) {
      const variants = [...Array.from({ length: gif.length }, (_, end) => gif.subarray(0, end))];
      for (let n = 0; n < 300; n++) {
        const flipped = gif.slice();
        flipped[random(flipped.length)]! ^= 1 << random(8);
        variants.push(flipped);
      }
      for (const variant of variants) {
        try {
          const { raster } = decodeGifFirstFrame(variant);
          expect(raster.data.length).toBe(raster.width * raster.height * 4);
          // Whatever probe accepts, it sizes as the decoder does, so the bomb guard judges the real canvas.
          // (or it refuses the file with a typed error: a flipped signature is no GIF to it).
          const probed = await probe(variant).then(
            (info) => [info.width, info.height],
            (error: unknown) => (error instanceof MediaError ? 'refused' : error),
          );
          expect([[raster.width, raster.height], 'refused']).toContainEqual(probed);
        } catch (error) {
          expect(error).toBeInstanceOf(MediaError);
          expect(error).toMatchObject({ code: 'E_CORRUPT' });
        }
      }
    }
  });
});
