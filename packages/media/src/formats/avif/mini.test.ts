// The compact AVIF form (AVIF 1.2, brand mif3, a `mini` box): each file is written from a regular avifenc
// file (test/fixtures/avif-mini.ts) and must decode to exactly the pixels that file decodes to, with the same
// facts; orientation, alpha, depths, subsampling and colour description come through the mini fields only.
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { miniAvif } from '../../../../../test/fixtures/avif-mini.js';
import { avifEnc } from '../../../../../test/fixtures/avif-tools.js';
import { naturalPixels, type Pixels } from '../../../../../test/fixtures/pixels.js';
import { failsWith } from '../../../../../test/support/typed-errors.js';
import '../../entries/node.js';
import { MediaError } from '../../errors.js';
import { probe } from '../../probe.js';
import { process } from '../../process.js';
import { decodeAvif } from './decode.js';
import { avif } from './format.js';

const FULL = { width: 1 << 30, height: 1 << 30 };

function withAlpha(pixels: Pixels): Pixels {
  const data = new Uint8Array(pixels.width * pixels.height * 4);
  for (let i = 0; i < pixels.width * pixels.height; i++) {
    data.set(pixels.data.subarray(i * 3, i * 3 + 3), i * 4);
    data[i * 4 + 3] = 255 - Math.round(((i % pixels.width) / (pixels.width - 1)) * 200);
  }
  return { data, width: pixels.width, height: pixels.height, channels: 4 };
}

async function sameDecode(regular: Uint8Array, mini: Uint8Array): Promise<void> {
  const [expected, actual] = [await decodeAvif(regular, FULL, 1e8), await decodeAvif(mini, FULL, 1e8)];
  expect({ width: actual.raster.width, height: actual.raster.height, alpha: actual.hasAlpha }).toEqual({
    width: expected.raster.width,
    height: expected.raster.height,
    alpha: expected.hasAlpha,
  });
  expect(Buffer.compare(Buffer.from(actual.raster.data), Buffer.from(expected.raster.data))).toBe(0);
  const { bytes: _regularBytes, ...expectedFacts } = await probe(regular);
  const { bytes, ...facts } = await probe(mini);
  expect(facts).toEqual(expectedFacts);
  expect(bytes).toBe(mini.length);
}

describe('AVIF compact form (mini)', () => {
  let photo: Uint8Array;
  beforeAll(async () => {
    photo = await avifEnc(naturalPixels(257, 171));
  }, 60_000);

  it('was "Unrecognised file format"; is detected as AVIF and goes out as a JPEG', async () => {
    const mini = miniAvif(photo);
    expect(mini.length).toBeLessThan(photo.length); // what the form is for
    const result = await process(mini, { maxBytes: 10_000_000 });
    expect(result).toMatchObject({
      mediaType: 'image/jpeg',
      width: 257,
      height: 171,
      original: { mediaType: 'image/avif' },
    });
  });

  it.each([
    ['8-bit 4:2:0', [], naturalPixels(257, 171)],
    ['small (7-bit dimensions)', [], naturalPixels(64, 48)],
    ['10-bit 4:4:4 limited range', ['-d', '10', '-y', '444', '-r', 'limited'], naturalPixels(257, 171)],
    ['12-bit monochrome', ['-d', '12', '-y', '400'], naturalPixels(100, 90)],
    ['4:2:2 with explicit BT.2020 code points', ['-y', '422', '--cicp', '9/16/9'], naturalPixels(130, 70)],
    ['alpha', [], withAlpha(naturalPixels(140, 100))],
    ['10-bit premultiplied alpha', ['-d', '10', '-p'], withAlpha(naturalPixels(140, 100))],
  ] as const)(
    '%s decodes to the pixels of the regular file it came from',
    async (_name, args, pixels) => {
      const regular = await avifEnc(pixels, [...args]);
      await sameDecode(regular, miniAvif(regular));
    },
    60_000,
  );

  it('reads past HDR fields (content light level, mastering display) with no gain map', async () => {
    await sameDecode(photo, miniAvif(photo, { hdr: true, xmp: new TextEncoder().encode('<x/>') }));
  });

  it('keeps the ICC profile it carries, and skips its Exif and XMP chunks', async () => {
    const tagged = await sharp({ create: { width: 2, height: 2, channels: 3, background: 'red' } })
      .withIccProfile('p3')
      .png()
      .toBuffer();
    const icc = new Uint8Array((await sharp(tagged).metadata()).icc ?? []);
    expect(icc.length).toBeGreaterThan(100);
    const mini = miniAvif(photo, {
      icc,
      exif: new TextEncoder().encode('MM\0*\0\0\0\x08\0\0'),
      xmp: new TextEncoder().encode('<x:xmpmeta xmlns:x="adobe:ns:meta/"/>'.repeat(40)), // over 1 KB: 20-bit sizes
    });
    await sameDecode(photo, mini);
    const probed = await avif.probe(mini);
    expect(Buffer.compare(Buffer.from((await probed.iccProfile?.()) ?? []), Buffer.from(icc))).toBe(0);
  });

  it.each([
    [2, ['--imir', '1']],
    [3, ['--irot', '2']],
    [5, ['--irot', '1', '--imir', '0']],
    [6, ['--irot', '3']],
    [7, ['--irot', '1', '--imir', '1']],
    [8, ['--irot', '1']],
  ] as const)(
    'orientation %i is the irot/imir the regular file states, turned upright the same way',
    async (orientation, args) => {
      const regular = await avifEnc(naturalPixels(120, 80), [...args]);
      const upright = await avifEnc(naturalPixels(120, 80));
      const mini = miniAvif(upright, { orientation });
      expect((await probe(mini)).orientation).toBe(orientation);
      expect((await probe(regular)).orientation).toBe(orientation);
      const [expected, actual] = [
        await process(regular, { maxBytes: 10_000_000 }),
        await process(mini, { maxBytes: 10_000_000 }),
      ];
      expect({ width: actual.width, height: actual.height }).toEqual({
        width: expected.width,
        height: expected.height,
      });
      const raw = async (bytes: Uint8Array) => sharp(bytes).raw().toBuffer();
      expect(Buffer.compare(await raw(actual.data), await raw(expected.data))).toBe(0);
    },
    60_000,
  );

  it('refuses a cut-short box as E_CORRUPT and another codec as E_UNSUPPORTED naming the form', async () => {
    const cut = await failsWith(probe(miniAvif(photo, { cut: 1 })), MediaError, 'E_CORRUPT');
    expect(cut.message).toMatch(/mini box holds .* bytes .* declare/);
    const hevc = await failsWith(probe(miniAvif(photo, { codecTypes: ['hvc1', 'hvcC'] })), MediaError, 'E_UNSUPPORTED');
    expect(hevc.message).toMatch(/compact form .*mini.*'hvc1'/);
    // A mif3 file whose codec brand is HEIC: named as the compact form, not as damage.
    const heic = miniAvif(photo);
    heic.set(
      [...'heic'].map((c) => c.charCodeAt(0)),
      12,
    );
    const refused = await failsWith(probe(heic), MediaError, 'E_UNSUPPORTED');
    expect(refused.message).toMatch(/HEIC is in the compact form/);
  });
});
