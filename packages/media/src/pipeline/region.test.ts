import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { MediaError, process, type Region } from '@glimpse/media';
import * as make from '../../../../test/fixtures/make.js';
import { decodeIndependently, meanAbsDiff } from '../../../../test/support/pixels.js';
import { failsWith } from '../../../../test/support/typed-errors.js';

/** The region of the upright image as sharp cuts it (autoOrient, then extract), resized to `size` when given. */
async function sharpRegion(bytes: Uint8Array, region: Region, size?: { width: number; height: number }) {
  let image = sharp(bytes)
    .autoOrient()
    .extract({ left: region.x, top: region.y, width: region.width, height: region.height });
  if (size) image = sharp(await image.png().toBuffer()).resize(size.width, size.height, { fit: 'fill' });
  const { data } = await image.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return new Uint8Array(data);
}

describe('process with a region', () => {
  it('cuts the region of a PNG at full resolution: the same pixels as the original there', async () => {
    const png = await make.screenshotPng({ width: 3000, height: 2000 });
    const region = { x: 1234, y: 567, width: 800, height: 500 };
    const result = await process(png, { preset: 'anthropic', region });
    expect(result).toMatchObject({ width: 800, height: 500, mediaType: 'image/png', region, resized: false });
    expect(result.steps).toContain('cropped');
    const decoded = await decodeIndependently(result.data);
    expect(meanAbsDiff(decoded.data, await sharpRegion(png, region))).toBe(0);
  });

  it('fits a region larger than the working size, and says it resized', async () => {
    const png = await make.screenshotPng({ width: 3000, height: 2000 });
    const region = { x: 0, y: 1000, width: 3000, height: 1000 };
    const result = await process(png, { preset: 'anthropic', region });
    expect(result).toMatchObject({ region, resized: true });
    expect(Math.ceil(result.width / 28) * Math.ceil(result.height / 28)).toBeLessThanOrEqual(1568);
    expect(result.width / result.height).toBeCloseTo(3, 1);
  });

  it.each([1, 2, 3, 4, 5, 6, 7, 8])(
    'takes the region in the upright image (JPEG, EXIF orientation %i)',
    async (orientation) => {
      const jpeg = await make.photoJpeg({ width: 640, height: 480, orientation, quality: 95 });
      const turned = orientation >= 5;
      const region = turned ? { x: 40, y: 300, width: 200, height: 150 } : { x: 300, y: 40, width: 200, height: 150 };
      const result = await process(jpeg, { region });
      expect(result).toMatchObject({ width: 200, height: 150, region });
      const decoded = await decodeIndependently(result.data);
      // Two JPEG decoders and a re-encode: close, not equal; a region cut from the wrong place is far off (> 20).
      expect(meanAbsDiff(decoded.data, await sharpRegion(jpeg, region))).toBeLessThan(4);
    },
  );

  it('cuts a large JPEG region from a DCT-scaled decode when it is shrunk anyway, without blurring its edges', async () => {
    const jpeg = await make.photoJpeg({ width: 4000, height: 3000, quality: 92 });
    const region = { x: 1000, y: 500, width: 3000, height: 1500 };
    const result = await process(jpeg, { preset: 'anthropic', region });
    const decoded = await decodeIndependently(result.data);
    const expected = await sharpRegion(jpeg, region, result);
    expect(meanAbsDiff(decoded.data, expected)).toBeLessThan(4);
  });

  it('refuses a region outside the image, an empty one and one that is not whole pixels, saying the size', async () => {
    const png = await make.screenshotPng({ width: 300, height: 200 });
    const outside = await failsWith(
      process(png, { region: { x: 250, y: 0, width: 100, height: 10 } }),
      MediaError,
      'E_INVALID_OPTIONS',
    );
    expect(outside.message).toContain('300×200');
    expect(outside.details).toMatchObject({ option: 'region', width: 300, height: 200 });
    await failsWith(process(png, { region: { x: 0, y: 0, width: 0, height: 10 } }), MediaError, 'E_INVALID_OPTIONS');
    await failsWith(process(png, { region: { x: 0.5, y: 0, width: 1, height: 1 } }), MediaError, 'E_INVALID_OPTIONS');
    await failsWith(process(png, { region: { x: -1, y: 0, width: 1, height: 1 } }), MediaError, 'E_INVALID_OPTIONS');
    // @ts-expect-error JavaScript callers may pass anything
    await failsWith(process(png, { region: '0,0,10,10' }), MediaError, 'E_INVALID_OPTIONS');
    // An EXIF-turned image is measured upright: 480 wide, not 640.
    const turned = await make.photoJpeg({ width: 640, height: 480, orientation: 6 });
    await failsWith(
      process(turned, { region: { x: 0, y: 0, width: 600, height: 10 } }),
      MediaError,
      'E_INVALID_OPTIONS',
    );
  });

  it('sends PDFs and SVGs to the right place: a PDF page region is renderPdfPage’s', async () => {
    const error = await failsWith(
      process(await make.pdf(), { region: { x: 0, y: 0, width: 10, height: 10 } }),
      MediaError,
      'E_INVALID_OPTIONS',
    );
    expect(error.message).toContain('renderPdfPage');
  });
});
