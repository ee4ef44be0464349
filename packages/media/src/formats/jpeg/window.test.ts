// A region of a JPEG decoded through decode_window (jpeg_crop_scanline + jpeg_skip_scanlines) must be the
// same pixels as that region of the whole decode, at every scale: the cut may not change a pixel next to it.
import { describe, expect, it } from 'vitest';
import '@glimpse/media';
import * as make from '../../../../../test/fixtures/make.js';
import type { RowLayout, RowSink, Size } from '../../raster/contract.js';
import { decodeToFit } from '../../pipeline/decode-to-fit.js';
import { scaledRegion } from '../../pipeline/region.js';
import { DEFAULT_MAX_INPUT_PIXELS } from '../../presets/limits.js';
import type { JpegInfo, Orientation, Region } from '../../types.js';
import { jpegDecoder } from './codec.js';
import { decodeJpegRows, decodeJpegScaled } from './kernel.js';

const SIZE = { width: 517, height: 389 }; // not a multiple of any iMCU

async function encode(
  options: { subsampling: '4:2:0' | '4:4:4'; progressive?: boolean; gray?: boolean; orientation?: number },
  size: Size = SIZE,
): Promise<Uint8Array> {
  let image = make.fromPixels(make.naturalPixels(size.width, size.height, { seed: 5 }));
  if (options.gray) image = image.toColourspace('b-w');
  if (options.orientation !== undefined) image = image.withMetadata({ orientation: options.orientation });
  return make.toBytes(
    image.jpeg({ quality: 90, chromaSubsampling: options.subsampling, progressive: options.progressive ?? false }),
  );
}

/** What decodeJpegRows delivers for `region` (in the decode's pixels): the layout and the kept rows' pixels. */
async function windowed(jpeg: Uint8Array, eighths: number, region: Region) {
  let layout: RowLayout | undefined;
  const rows: Uint8Array[] = [];
  const sink: RowSink = {
    start(delivered) {
      layout = delivered;
    },
    write(pixels, count) {
      const rowBytes = layout!.width * 4;
      for (let r = 0; r < count; r++) rows.push(pixels.slice(r * rowBytes, (r + 1) * rowBytes));
    },
  };
  await decodeJpegRows(jpeg, eighths, sink, () => region);
  return { layout: layout!, rows };
}

/** The region's pixels (image coordinates) from rows of the image whose first column is column `dx`. */
function cut(rowAt: (y: number) => Uint8Array, region: Region, dx = 0): Uint8Array {
  const out = new Uint8Array(region.width * region.height * 4);
  const from = (region.x - dx) * 4;
  for (let r = 0; r < region.height; r++)
    out.set(rowAt(region.y + r).subarray(from, from + region.width * 4), r * region.width * 4);
  return out;
}

const VARIANTS = [
  { name: 'baseline 4:2:0', subsampling: '4:2:0' },
  { name: 'baseline 4:4:4', subsampling: '4:4:4' },
  { name: 'progressive 4:2:0', subsampling: '4:2:0', progressive: true },
  { name: 'progressive 4:4:4', subsampling: '4:4:4', progressive: true },
  { name: 'gray', subsampling: '4:4:4', gray: true },
] as const;

/** Regions of the 517×389 image: inner ones at odd offsets, ones touching each edge, a corner, one pixel, a full-width band. */
const REGIONS: Region[] = [
  { x: 101, y: 77, width: 203, height: 151 },
  { x: 0, y: 0, width: 37, height: 29 },
  { x: 480, y: 350, width: 37, height: 39 },
  { x: 0, y: 201, width: 517, height: 33 },
  { x: 255, y: 0, width: 1, height: 389 },
  { x: 333, y: 222, width: 1, height: 1 },
  { x: 17, y: 3, width: 499, height: 385 },
];

describe('JPEG regions through decode_window', () => {
  it.each(VARIANTS)(
    '$name: every region at every scale is the same pixels as that region of the whole decode',
    async (variant) => {
      const jpeg = await encode(variant);
      for (const eighths of [8, 5, 4, 2, 1]) {
        const whole = await decodeJpegScaled(jpeg, eighths);
        const wholeRow = (y: number) => whole.data.subarray(y * whole.width * 4, (y + 1) * whole.width * 4);
        for (const stored of REGIONS) {
          const region = scaledRegion(stored, SIZE, whole);
          const { layout, rows } = await windowed(jpeg, eighths, region);
          const part = layout.part ?? { x: 0, y: 0, whole };
          expect(part.whole).toEqual({ width: whole.width, height: whole.height });
          // The window holds the region and no more rows than reach its bottom (the caller stops there).
          expect(part.x).toBeLessThanOrEqual(region.x);
          expect(part.y).toBeLessThanOrEqual(region.y);
          expect(part.x + layout.width).toBeGreaterThanOrEqual(region.x + region.width);
          const got = cut((y) => rows[y - part.y]!, region, part.x);
          expect(
            Buffer.from(got).equals(Buffer.from(cut(wholeRow, region))),
            `${variant.name} at ${eighths}/8, ${JSON.stringify(stored)}`,
          ).toBe(true);
        }
      }
    },
  );

  it('decodes only the window: a region inside a wide image delivers narrower rows, starting at its own row', async () => {
    const jpeg = await encode({ subsampling: '4:2:0' }, { width: 2048, height: 1024 });
    const { layout } = await windowed(jpeg, 8, { x: 1000, y: 600, width: 100, height: 50 });
    // Two 16-px iMCUs of margin on each side (libjpeg aligns the left edge down to an iMCU): 160 columns, from row 568.
    expect(layout.part).toEqual({ x: 960, y: 568, whole: { width: 2048, height: 1024 } });
    expect(layout).toMatchObject({ width: 1100 + 32 - 960, height: 1024 - 568 });
  });

  it('a progressive file cut short (block smoothing fills its missing detail): the region is the whole decode’s too', async () => {
    const full = await encode({ subsampling: '4:2:0', progressive: true });
    const jpeg = full.subarray(0, Math.floor(full.length * 0.6));
    for (const eighths of [8, 3]) {
      const whole = await decodeJpegScaled(jpeg, eighths);
      const wholeRow = (y: number) => whole.data.subarray(y * whole.width * 4, (y + 1) * whole.width * 4);
      const region = scaledRegion({ x: 201, y: 99, width: 150, height: 200 }, SIZE, whole);
      const { layout, rows } = await windowed(jpeg, eighths, region);
      expect(layout.part).toBeDefined();
      const got = cut((y) => rows[y - layout.part!.y]!, region, layout.part!.x);
      expect(Buffer.from(got).equals(Buffer.from(cut(wholeRow, region)))).toBe(true);
    }
  });
});

/** Facts as probe reads them, for decodeToFit (stored size, as the header declares). */
function facts(jpeg: Uint8Array, stored: Size, orientation: Orientation, progressive: boolean): JpegInfo {
  return {
    mediaType: 'image/jpeg',
    bytes: jpeg.length,
    ...stored,
    orientation,
    frames: 1,
    hasAlpha: false,
    bitDepth: 8,
    components: 3,
    progressive,
    complete: true,
  } as JpegInfo;
}

describe('decodeToFit with a crop: the JPEG window gives the raster the whole decode gives', () => {
  // EXIF orientations, 4:2:0 and 4:4:4, baseline and progressive, a region kept as it is (8/8) and one
  // shrunk (a DCT-scaled decode).
  const cases = [1, 3, 6, 8].flatMap((orientation) =>
    (['4:2:0', '4:4:4'] as const).flatMap((subsampling) =>
      [false, true].map((progressive) => ({ orientation: orientation as Orientation, subsampling, progressive })),
    ),
  );
  it.each(cases)(
    'orientation $orientation, $subsampling, progressive $progressive',
    async ({ orientation, subsampling, progressive }) => {
      const jpeg = await encode({ subsampling, progressive, orientation });
      const info = facts(jpeg, SIZE, orientation, progressive);
      for (const [crop, fitted] of [
        [
          { x: 123, y: 45, width: 301, height: 199 },
          { width: 301, height: 199 },
        ],
        [
          { x: 0, y: 190, width: 517, height: 199 },
          { width: 130, height: 50 },
        ],
        [
          { x: 481, y: 0, width: 36, height: 389 },
          { width: 36, height: 389 },
        ],
      ] as const) {
        const run = (withCrop: boolean) =>
          decodeToFit({
            decode: ({ crop: given, ...job }) =>
              jpegDecoder({
                ...job,
                ...(withCrop && given && { crop: given }),
                facts: info,
                maxInputPixels: DEFAULT_MAX_INPUT_PIXELS,
              }),
            bytes: jpeg,
            stored: SIZE,
            fitted,
            crop,
            orientation,
          });
        const [windowedRaster, wholeRaster] = [await run(true), await run(false)];
        expect(windowedRaster.raster.width).toBe(wholeRaster.raster.width);
        expect(Buffer.from(windowedRaster.raster.data).equals(Buffer.from(wholeRaster.raster.data))).toBe(true);
      }
    },
  );
});
