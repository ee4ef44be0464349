import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { MediaError, patchCount, renderPdfPage } from '@glimpse/media';
import { rotatedPdf, textPdf } from '../../../test/fixtures/pdf-documents.js';
import { decodeIndependently, meanAbsDiff } from '../../../test/support/pixels.js';
import { failsWith } from '../../../test/support/typed-errors.js';

/** The same part of the whole page drawn at `scale` pixels per point, cut with sharp: what the region must show. */
async function cutFromWholePage(
  pdf: Uint8Array,
  page: number,
  region: Record<'x' | 'y' | 'width' | 'height', number>,
  size: { width: number; height: number },
) {
  const scale = size.width / region.width;
  const whole = await renderPdfPage(pdf, page, { maxEdge: Math.round(792 * scale) });
  const { data } = await sharp(whole.data)
    .extract({ left: Math.round(region.x * scale), top: Math.round(region.y * scale), ...size })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return new Uint8Array(data);
}

describe('renderPdfPage with a region', () => {
  it('draws only the region, at the resolution that fills the working size', async () => {
    const pdf = await textPdf();
    const region = { x: 60, y: 60, width: 300, height: 150 };
    const result = await renderPdfPage(pdf, 1, { preset: 'portable', region });
    // 300×150 points drawn at 2000 px: 6.7 px per point (480 dpi), where the whole page got 2.5.
    expect(result).toMatchObject({ width: 2000, height: 1000, region });
    expect(result.steps).toEqual(['rasterized', 'cropped']);
    const decoded = await decodeIndependently(result.data);
    expect(meanAbsDiff(decoded.data, await cutFromWholePage(pdf, 1, region, result))).toBeLessThan(1.5);
  });

  it('fits the region to the patch budget (anthropic) and measures it on the upright page (/Rotate 90)', async () => {
    const pdf = await rotatedPdf();
    // Page 2 is turned by 90°: upright it is 792 wide and 612 high.
    const region = { x: 400, y: 300, width: 392, height: 312 };
    const result = await renderPdfPage(pdf, 2, { preset: 'anthropic', region });
    expect(patchCount(result, 28)).toBeLessThanOrEqual(1568);
    expect(result.original).toMatchObject({ width: 792, height: 612 });
    await failsWith(
      renderPdfPage(pdf, 2, { region: { x: 0, y: 0, width: 700, height: 700 } }),
      MediaError,
      'E_INVALID_OPTIONS',
    );
  });
});
