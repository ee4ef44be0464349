// An iPhone stores every HEIC with a Display P3 ICC profile in its `colr` box; the converted JPEG must carry
// it, or viewers take the P3 numbers for sRGB and the photo looks washed out.
import '@glimpse/heif';
import { process } from '@glimpse/media';
import sharp from 'sharp';
import { expect, it } from 'vitest';
import { encodePngFile } from '../../../test/fixtures/avif-tools.js';
import * as make from '../../../test/fixtures/make.js';
import { decodeIndependently } from '../../../test/support/pixels.js';

it('a Display P3 HEIC → JPEG with its profile, so pure red renders as pure red', async () => {
  const pixels = make.naturalPixels(600, 400, { seed: 5 });
  for (let y = 0; y < 100; y++) for (let x = 0; x < 150; x++) pixels.data.set([255, 0, 0], (y * 600 + x) * 3);
  const p3Png = await make.toBytes(make.fromPixels(pixels).withIccProfile('p3').png());
  const profile = (await sharp(p3Png).metadata()).icc;
  const heic = encodePngFile('heif-enc', p3Png, ['-q', '90']);
  const result = await process(heic, { maxEdge: 300 });
  expect(result).toMatchObject({ mediaType: 'image/jpeg', width: 300, height: 200 });
  expect((await sharp(result.data).metadata()).icc).toEqual(profile);
  const decoded = await decodeIndependently(result.data);
  const red = Array.from(decoded.data.subarray((20 * 300 + 20) * 4, (20 * 300 + 20) * 4 + 3));
  expect(Math.abs(red[0]! - 255) + red[1]! + red[2]!).toBeLessThan(24);
}, 60_000);
