import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { process as fit, MediaError, PRESETS, type ProcessOptions } from '@glimpse/media';
import * as make from '../../../test/fixtures/make.js';
import { decodeIndependently, hasTransparency, meanAbsDiff, reference } from '../../../test/support/pixels.js';
import { psnr } from '../../../test/support/psnr.js';
import { failsWith } from '../../../test/support/typed-errors.js';
import { FORMATS } from './formats/registry.js';

/** Re-encodes any image as PNG (keeps alpha). */
async function asPng(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await sharp(bytes).png().toBuffer());
}

/** Fails with a MediaError of `code` whose message says something (what was found, what to do). */
async function expectCode(promise: Promise<unknown>, code: MediaError['code']): Promise<MediaError> {
  const error = await failsWith(promise, MediaError, code);
  expect(error.message.length).toBeGreaterThan(30);
  return error;
}

/** Processes, decodes the output independently, and checks it against sharp's rendering of the input. */
async function fitAndCompare(input: Uint8Array, options: ProcessOptions = {}, tolerance = 6) {
  const result = await fit(input, options);
  const decoded = await decodeIndependently(result.data);
  expect([decoded.width, decoded.height]).toEqual([result.width, result.height]);
  expect(result.bytes).toBe(result.data.byteLength);
  const expected = await reference(input, result.width, result.height);
  expect(meanAbsDiff(decoded.data, expected)).toBeLessThan(tolerance);
  return { result, decoded };
}

describe('process: passthrough', () => {
  it('returns a fitting, upright still of an accepted type untouched, without decoding', async () => {
    const input = await make.screenshotPng({ width: 800, height: 500 });
    const result = await fit(input);
    expect(result.data).toBe(input);
    expect(result).toMatchObject({
      mediaType: 'image/png',
      width: 800,
      height: 500,
      resized: false,
      reencoded: false,
      steps: [],
    });
  });

  it('passes a still GIF through for a provider that takes GIF, but converts it for portable', async () => {
    const input = await make.gif({ width: 120, height: 80 });
    expect((await fit(input, { preset: 'anthropic' })).data).toBe(input);
    const portable = await fit(input);
    expect(portable.mediaType).toBe('image/png');
    expect(portable.steps).toContain('converted');
  });
});

describe('process: orientation', () => {
  for (const orientation of [2, 3, 4, 5, 6, 7, 8]) {
    it(`turns a small JPEG with EXIF orientation ${orientation} upright`, async () => {
      const input = await make.photoJpeg({ width: 64, height: 48, orientation });
      const { result } = await fitAndCompare(input);
      const swapped = orientation >= 5;
      expect([result.width, result.height]).toEqual(swapped ? [48, 64] : [64, 48]);
      expect(result.steps).toContain('oriented');
      expect(result.resized).toBe(false);
    });
  }

  it('applies a PNG eXIf orientation too, and stays lossless', async () => {
    const input = await make.screenshotPng({ width: 120, height: 60, orientation: 6 });
    const { result } = await fitAndCompare(input, {}, 0.01);
    expect(result).toMatchObject({ mediaType: 'image/png', width: 60, height: 120 });
  });
});

describe('process: resizing in the same codec', () => {
  it('JPEG → JPEG within maxEdge', async () => {
    const input = await make.photoJpeg({ width: 2600, height: 1700, quality: 90 });
    const { result } = await fitAndCompare(input, {}, 4);
    expect(result).toMatchObject({
      mediaType: 'image/jpeg',
      width: 2000,
      height: 1308,
      resized: true,
      reencoded: true,
    });
  });

  it('PNG screenshot → PNG (lossless) within the anthropic working size (1,568 patches of 28 px)', async () => {
    const input = await make.screenshotPng({ width: 2400, height: 1500 });
    const { result } = await fitAndCompare(input, { preset: 'anthropic' }, 4);
    // 1568×980 would be 56×35 = 1,960 patches, downscaled again by the server; 1389×868 is 50×31 = 1,550.
    expect(result).toMatchObject({ mediaType: 'image/png', width: 1389, height: 868 });
  });

  it('WebP → WebP, alpha kept', async () => {
    const input = await make.webp({ width: 900, height: 600, alpha: true });
    const { result, decoded } = await fitAndCompare(input, { maxEdge: 450 }, 6);
    expect(result).toMatchObject({ mediaType: 'image/webp', width: 450, height: 300 });
    expect(hasTransparency(decoded.data)).toBe(true);
  });

  it('WebP with alpha becomes PNG where WebP is not accepted (ollama), never a flattened JPEG', async () => {
    const input = await make.webp({ width: 1600, height: 900, alpha: true });
    const { result, decoded } = await fitAndCompare(input, { preset: 'ollama' }, 6);
    expect(result.mediaType).toBe('image/png');
    expect(hasTransparency(decoded.data)).toBe(true);
  });

  it('honours explicit maxEdge over the preset', async () => {
    const result = await fit(await make.photoJpeg({ width: 640, height: 480 }), { maxEdge: 100 });
    expect([result.width, result.height]).toEqual([100, 75]);
  });
});

describe('process: conversions', () => {
  it('BMP → PNG with exact pixels', async () => {
    const pixels = make.naturalPixels(90, 60, { channels: 4 });
    const input = make.encodeBmp(pixels, { bitsPerPixel: 24 });
    const result = await fit(input);
    expect(result).toMatchObject({ mediaType: 'image/png', width: 90, height: 60, reencoded: true });
    expect((await decodeIndependently(result.data)).data).toEqual(make.expectedBmpPixels(pixels, { bitsPerPixel: 24 }));
    expect(result.steps).toContain('converted');
  });

  it('animated GIF → its first frame as a PNG still (OpenAI rejects animations)', async () => {
    const input = await make.gif({ width: 120, height: 80, animated: true, frames: 3 });
    const result = await fit(input, { preset: 'openai' });
    expect(result.mediaType).toBe('image/png');
    expect(result.steps).toContain('first-frame');
    const decoded = await decodeIndependently(result.data);
    // Frame 1 has its red block at the left, frame 2 in the middle.
    const at = (x: number, y: number) => [...decoded.data.subarray((y * 120 + x) * 4, (y * 120 + x) * 4 + 3)];
    expect(at(20, 10)[0]).toBeGreaterThan(180);
    expect(at(60, 10)).not.toEqual(at(20, 10));
  });

  it('animated WebP → its first frame, transparency kept', async () => {
    const input = await make.webp({ width: 120, height: 80, animated: true, alpha: true, alphaLayout: 'strip' });
    const result = await fit(input);
    expect(result.steps).toContain('first-frame');
    const decoded = await decodeIndependently(result.data);
    expect([decoded.width, decoded.height]).toEqual([120, 80]);
    const pixel = (x: number, y: number) => [...decoded.data.subarray((y * 120 + x) * 4, (y * 120 + x) * 4 + 4)];
    expect(pixel(5, 40)[3]).toBe(0); // the transparent strip
    expect(pixel(50, 10)[0]).toBeGreaterThan(150); // frame 1's red block spans x 30–59
    expect(pixel(100, 60)[3]).toBe(255);
  });
});

describe('process: colour models', () => {
  it('CMYK (Adobe inverted) JPEG decodes to the right colours', async () => {
    const input = await make.photoJpeg({ width: 200, height: 150, cmyk: true });
    // sharp converts CMYK through an ICC profile; glimpse, like browsers given no profile, inverts and
    // multiplies by K. The two agree within ~10/255 on average; swapped or uninverted channels are > 60.
    await fitAndCompare(input, { maxEdge: 100 }, 14);
  });

  it('a small CMYK JPEG is still converted to sRGB, never passed through', async () => {
    const input = await make.photoJpeg({ width: 200, height: 150, cmyk: true });
    const { result, decoded } = await fitAndCompare(input, {}, 14);
    expect(result.reencoded).toBe(true);
    expect(decoded.channels).toBe(3);
  });

  it('grayscale JPEG', async () => {
    await fitAndCompare(await make.photoJpeg({ width: 200, height: 150, gray: true }), { maxEdge: 100 }, 4);
  });

  for (const [name, options] of [
    ['16-bit', { bitDepth16: true }],
    ['interlaced', { interlaced: true }],
    ['palette + tRNS', { palette: true, alpha: true }],
    ['gray + alpha', { grayAlpha: true }],
    ['gray 16-bit', { gray: true, bitDepth16: true }],
  ] as const) {
    it(`${name} PNG keeps colours and alpha`, async () => {
      const input = await make.screenshotPng({ width: 300, height: 200, ...options });
      const { decoded } = await fitAndCompare(input, { maxEdge: 150 }, 5);
      const sourceAlpha = hasTransparency((await decodeIndependently(input)).data);
      expect(hasTransparency(decoded.data)).toBe(sourceAlpha);
    });
  }
});

describe('process: byte limits', () => {
  it('a photo over maxBytes steps JPEG quality down and never exceeds the limit', async () => {
    const input = await make.photoJpeg({ width: 1800, height: 1200, quality: 98 });
    const result = await fit(input, { maxBytes: 60_000 });
    expect(result.bytes).toBeLessThanOrEqual(60_000);
    expect(result.mediaType).toBe('image/jpeg');
    expect(result.steps).toContain('quality-reduced');
  });

  it('an opaque PNG over maxBytes may become JPEG; one with alpha becomes WebP', async () => {
    const opaque = await fit(await make.photoJpeg({ width: 900, height: 600 }).then(asPng), { maxBytes: 120_000 });
    expect(opaque.mediaType).toBe('image/jpeg');
    expect(opaque.bytes).toBeLessThanOrEqual(120_000);
    const alpha = await fit(await make.webp({ width: 900, height: 600, alpha: true, lossless: true }).then(asPng), {
      maxBytes: 60_000,
    });
    expect(alpha.mediaType).toBe('image/webp');
    expect(hasTransparency((await decodeIndependently(alpha.data)).data)).toBe(true);
  });

  it('scales down when quality alone is not enough', async () => {
    const result = await fit(await make.photoJpeg({ width: 1600, height: 1200 }), { maxBytes: 6_000 });
    expect(result.bytes).toBeLessThanOrEqual(6_000);
    expect(result.steps).toContain('scaled-for-bytes');
    expect(result.width).toBeLessThan(1600);
  });

  it('goes straight to a smaller size when lower quality cannot close the gap, and jumps near the size that fits', async () => {
    const svg = new TextEncoder().encode(
      '<svg xmlns="http://www.w3.org/2000/svg" width="2000" height="2000"><circle cx="1000" cy="1000" r="900" fill="#34a853"/></svg>',
    );
    const result = await fit(svg, { maxBytes: 1_500 });
    expect(result.bytes).toBeLessThanOrEqual(1_500);
    expect(result.steps).toEqual(['rasterized', 'converted', 'scaled-for-bytes']);
    expect(result.width).toBeGreaterThan(40); // not shrunk far past what fits
  });

  it('refuses with E_TOO_LARGE when nothing fits', async () => {
    await expectCode(fit(await make.photoJpeg({ width: 400, height: 300 }), { maxBytes: 50 }), 'E_TOO_LARGE');
  });
});

describe('process: SVG', () => {
  it('renders to PNG within maxEdge, with its text drawn by the bundled font', async () => {
    const result = await fit(make.svg({ width: '2400', height: '1200', viewBox: '0 0 240 120' }));
    expect(result).toMatchObject({ mediaType: 'image/png', width: 2000, height: 1000 });
    expect(result.steps).toContain('rasterized');
    const decoded = await decodeIndependently(result.data);
    // The text "glimpse" is dark (#202124) on light blue: some dark pixels must be in its box.
    let dark = 0;
    for (let y = 230; y < 380; y++) for (let x = 420; x < 1200; x++) if (decoded.data[(y * 2000 + x) * 4]! < 80) dark++;
    expect(dark).toBeGreaterThan(500);
  });

  it('a malformed SVG is a typed error', async () => {
    await expectCode(
      fit(new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><rect</svg>')),
      'E_SVG_INVALID',
    );
  });
});

describe('process: PDF', () => {
  it('passes a valid PDF through untouched with its page count', async () => {
    const input = await make.pdf({ pages: 3 });
    const result = await fit(input);
    expect(result.data).toBe(input);
    expect(result).toMatchObject({ mediaType: 'application/pdf', pages: 3, reencoded: false });
  });

  it('refuses encrypted, over-long, oversized, PDF-less routes and malformed PDFs', async () => {
    await expectCode(fit(await make.pdf({ encrypted: true })), 'E_PDF_ENCRYPTED');
    await expectCode(fit(await make.pdf({ pages: 5 }), { maxPdfPages: 4 }), 'E_TOO_LARGE');
    await expectCode(fit(await make.pdf({ pages: 2 }), { maxPdfBytes: 500 }), 'E_TOO_LARGE');
    await expectCode(fit(await make.pdf(), { preset: 'ollama' }), 'E_UNSUPPORTED');
    const whole = await make.pdf({ pages: 2 });
    await expectCode(fit(whole.subarray(0, 400)), 'E_CORRUPT');
  });
});

describe('process: hostile and unsupported input', () => {
  it('refuses decompression bombs from the header, before any decoder starts and without allocating', async () => {
    // Decoding first would take minutes: no format's decoder may be asked.
    const decoders = FORMATS.flatMap((format) => (format.kind === 'raster' ? [vi.spyOn(format, 'decode')] : []));
    for (const bomb of [
      make.pngBomb(70_000, 10),
      make.pngBomb(20_000, 20_000),
      make.jpegBomb(60_000, 60_000),
      make.gifBomb(65_000, 65_000),
    ]) {
      const before = globalThis.process.memoryUsage().arrayBuffers;
      await expectCode(fit(bomb), 'E_TOO_MANY_PIXELS');
      expect(globalThis.process.memoryUsage().arrayBuffers - before).toBeLessThan(8_000_000);
    }
    for (const decode of decoders) expect(decode).not.toHaveBeenCalled();
    for (const decode of decoders) decode.mockRestore();
    await expectCode(fit(make.pngBomb(5000, 5000), { maxInputPixels: 1_000_000 }), 'E_TOO_MANY_PIXELS');
  });

  it('names formats it cannot convert', async () => {
    const jxl = new Uint8Array([0xff, 0x0a, 0xfa, 0x7f, 0x01, 0x90, ...new Uint8Array(40)]);
    expect((await expectCode(fit(jxl), 'E_UNSUPPORTED')).message).toMatch(/JPEG XL/);
  });

  it('converts an AVIF that sharp wrote (libheif + aom) to JPEG with the pixels sharp decodes', async () => {
    const avif = new Uint8Array(
      await sharp({ create: { width: 40, height: 24, channels: 3, background: '#0f0' } })
        .avif({ effort: 0 })
        .toBuffer(),
    );
    const result = await fit(avif);
    expect(result).toMatchObject({
      mediaType: 'image/jpeg',
      width: 40,
      height: 24,
      original: { mediaType: 'image/avif' },
    });
    const { data } = await sharp(result.data).raw().toBuffer({ resolveWithObject: true });
    const { data: expected } = await sharp(avif).raw().toBuffer({ resolveWithObject: true });
    expect(psnr(new Uint8Array(data), new Uint8Array(expected))).toBeGreaterThan(35);
  });

  it('garbage is E_UNSUPPORTED', async () => {
    await expectCode(fit(make.garbage(5000)), 'E_UNSUPPORTED');
    await expectCode(fit(new Uint8Array(0)), 'E_UNSUPPORTED');
  });

  it('rejects bad options with E_INVALID_OPTIONS', async () => {
    const input = await make.screenshotPng({ width: 10, height: 10 });
    await expectCode(fit(input, { maxEdge: 0 }), 'E_INVALID_OPTIONS');
    await expectCode(fit(input, { maxBytes: 1.5 }), 'E_INVALID_OPTIONS');
    await expectCode(fit(input, { preset: 'nope' as 'portable' }), 'E_INVALID_OPTIONS');
  });

  describe('truncated and corrupted files', () => {
    let stderr: ReturnType<typeof vi.spyOn>;
    beforeEach(() => {
      stderr = vi.spyOn(globalThis.process.stderr, 'write');
    });
    afterEach(() => stderr.mockRestore());

    it('give a typed error or a recovered image, never a crash or codec noise on stderr', async () => {
      const sources = [
        await make.photoJpeg({ width: 300, height: 200, orientation: 6 }),
        await make.photoJpeg({ width: 300, height: 200, progressive: true }),
        await make.screenshotPng({ width: 300, height: 200, interlaced: true }),
        await make.webp({ width: 300, height: 200, alpha: true }),
        await make.gif({ width: 120, height: 80, animated: true }),
        make.encodeBmp(make.naturalPixels(60, 40, { channels: 4 }), { bitsPerPixel: 8, rle: true }),
      ];
      for (const source of sources) {
        for (const cut of [0.1, 0.5, 0.9, 0.99]) {
          const truncated = source.slice(0, Math.floor(source.length * cut));
          await fit(truncated, { maxEdge: 100 }).then(
            (result) => expect(result.bytes).toBeGreaterThan(0),
            (error: unknown) => expect(error).toBeInstanceOf(MediaError),
          );
        }
        const flipped = source.slice();
        for (let i = 40; i < flipped.length; i += 97) flipped[i]! ^= 0x5a;
        await fit(flipped, { maxEdge: 100 }).then(
          (result) => expect(result.bytes).toBeLessThanOrEqual(PRESETS.portable.maxBytes),
          (error: unknown) => expect(error).toBeInstanceOf(MediaError),
        );
      }
      expect(stderr).not.toHaveBeenCalled();
    });
  });
});

describe('process: review findings', () => {
  it('decodes a truncated JPEG instead of passing it through', async () => {
    const whole = await make.photoJpeg({ width: 400, height: 300 });
    const cut = whole.slice(0, Math.floor(whole.length * 0.7));
    const result = await fit(cut);
    expect(result.reencoded).toBe(true);
    const decoded = await decodeIndependently(result.data);
    expect([decoded.width, decoded.height]).toEqual([400, 300]);
  });

  it('an explicit maxBytes bounds PDFs too', async () => {
    await expectCode(fit(await make.pdf({ pages: 2 }), { maxBytes: 100 }), 'E_TOO_LARGE');
  });

  it('a CMYK JPEG says it was converted', async () => {
    const result = await fit(await make.photoJpeg({ width: 120, height: 90, cmyk: true }));
    expect(result.steps).toContain('converted');
  });

  it('refuses input that is not a Uint8Array with a typed error', async () => {
    await expectCode(fit(new ArrayBuffer(8) as unknown as Uint8Array), 'E_INVALID_INPUT');
    await expectCode(fit('picture.png' as unknown as Uint8Array), 'E_INVALID_INPUT');
    await expect(fit(new ArrayBuffer(8) as unknown as Uint8Array)).rejects.toThrow(/not an ArrayBuffer\./);
    await expect(fit(7 as unknown as Uint8Array)).rejects.toThrow(/not a number\./);
  });
});

describe('process: SVG edge cases', () => {
  const encode = (text: string) => new TextEncoder().encode(text);

  it('renders a sliver SVG one pixel thick instead of failing', async () => {
    const result = await fit(
      encode(
        '<svg xmlns="http://www.w3.org/2000/svg" width="100000" height="1"><rect width="100000" height="1" fill="red"/></svg>',
      ),
    );
    expect([result.width, result.height]).toEqual([2000, 1]);
    const decoded = await decodeIndependently(result.data);
    expect(decoded.data[0]).toBeGreaterThan(200);
  });

  it('renders a UTF-16 SVG', async () => {
    const text =
      '\uFEFF<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="#00f"/></svg>';
    const utf16 = new Uint8Array(text.length * 2);
    for (let i = 0; i < text.length; i++) utf16.set([text.charCodeAt(i) & 0xff, text.charCodeAt(i) >> 8], i * 2);
    const result = await fit(utf16);
    expect([result.width, result.height]).toEqual([40, 20]);
    expect((await decodeIndependently(result.data)).data[2]).toBeGreaterThan(200);
  });

  it('refuses an SVG that embeds a decompression bomb', async () => {
    const bomb = Buffer.from(make.pngBomb(30_000, 30_000)).toString('base64');
    const svgText = `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><image width="100" height="100" href="data:image/png;base64,${bomb}"/></svg>`;
    await expectCode(fit(encode(svgText)), 'E_TOO_MANY_PIXELS');
  });
});

describe('process: lossless WebP', () => {
  it('stays lossless as PNG (which streams), never JPEG, on every route; a lossy WebP stays WebP', async () => {
    const input = await make.webp({ width: 900, height: 600, lossless: true });
    const { result } = await fitAndCompare(input, { maxEdge: 450 }, 4);
    expect(result).toMatchObject({ mediaType: 'image/png', width: 450, height: 300 });
    expect((await fit(input, { preset: 'ollama', maxEdge: 450 })).mediaType).toBe('image/png');
    const lossy = await make.webp({ width: 900, height: 600 });
    expect((await fit(lossy, { maxEdge: 450 })).mediaType).toBe('image/webp');
  });
});
