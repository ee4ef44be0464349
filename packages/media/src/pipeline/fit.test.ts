// fitWithinLimits' size search: the result fits maxBytes, and a size 1.15× larger on each side, resized and
// encoded by the test with the same resizer, encoder and quality, would not have (so the search did not
// shrink past what fits). maxBytes values are fractions of the full-size encoding, so every case reaches
// the search whatever the encoders' exact sizes.
import { describe, expect, it } from 'vitest';
import { useNodeWasm } from '../../../../test/support/node-wasm.js';
import { naturalPixels } from '../../../../test/fixtures/pixels.js';
import { type Encoding, encodeRaster } from './encode.js';
import { fitWithinLimits, SCALE_QUALITY } from './fit.js';
import { resizeRaster } from '../raster/resize.js';
import type { Raster, SendableImageType } from '../types.js';

useNodeWasm();

/** A 960×720 photo as RGBA: opaque, or with alpha fading towards the sides. */
function photo(alpha: boolean): Raster {
  const { data, width, height } = naturalPixels(960, 720, { channels: alpha ? 4 : 3, seed: 5 });
  if (alpha) return { data, width, height };
  const rgba = new Uint8Array(width * height * 4).fill(255);
  for (let i = 0; i < width * height; i++) rgba.set(data.subarray(i * 3, i * 3 + 3), i * 4);
  return { data: rgba, width, height };
}

const PNG: Encoding = { type: 'image/png', quality: 100, lossless: true };
const CASES: { name: string; alpha: boolean; accepts: SendableImageType[]; scaled: Encoding }[] = [
  // With alpha and no WebP the output stays PNG: size is the only knob.
  { name: 'PNG (alpha, no WebP)', alpha: true, accepts: ['image/png', 'image/jpeg'], scaled: PNG },
  {
    name: 'JPEG (opaque)',
    alpha: false,
    accepts: ['image/png', 'image/jpeg', 'image/webp'],
    scaled: { type: 'image/jpeg', quality: SCALE_QUALITY, lossless: false },
  },
  {
    name: 'lossy WebP (alpha)',
    alpha: true,
    accepts: ['image/png', 'image/jpeg', 'image/webp'],
    scaled: { type: 'image/webp', quality: SCALE_QUALITY, lossless: false },
  },
];

describe('fitWithinLimits: scaling for maxBytes', () => {
  for (const { name, alpha, accepts, scaled } of CASES) {
    for (const share of [1 / 6, 1 / 20, 1 / 60]) {
      it(`${name}, maxBytes 1/${Math.round(1 / share)} of the full size: fits, and 1.15× the size would not`, async () => {
        const raster = photo(alpha);
        const maxBytes = Math.round((await encodeRaster(raster, scaled, alpha)).byteLength * share);
        let encodes = 0;
        const fitted = await fitWithinLimits({
          raster,
          hasAlpha: alpha,
          preferred: PNG,
          maxBytes,
          accepts,
          deadline: { timeoutMs: Number.POSITIVE_INFINITY, check: () => void encodes++ },
        });
        expect(fitted.mediaType).toBe(scaled.type);
        expect(fitted.steps).toContain('scaled-for-bytes');
        expect(fitted.data.byteLength).toBeLessThanOrEqual(maxBytes);
        const larger = { width: Math.round(fitted.width * 1.15), height: Math.round(fitted.height * 1.15) };
        expect(larger.width).toBeLessThan(raster.width);
        const bytes = (
          await encodeRaster(await resizeRaster(raster, larger.width, larger.height, alpha), scaled, alpha)
        ).byteLength;
        expect(bytes, `${larger.width}×${larger.height} is ${bytes} bytes`).toBeGreaterThan(maxBytes);
        // Full size (PNG, then the lossy quality steps), 1–3 shrinking sizes, at most 4 to refine.
        expect(encodes).toBeLessThanOrEqual(12);
      });
    }
  }

  it('still refuses with E_TOO_LARGE when not even 16 px fits', async () => {
    const raster = photo(true);
    const error = await fitWithinLimits({
      raster,
      hasAlpha: true,
      preferred: PNG,
      maxBytes: 60,
      accepts: ['image/png'],
    }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'E_TOO_LARGE' });
  });
});
