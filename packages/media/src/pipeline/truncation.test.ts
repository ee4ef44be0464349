import { describe, expect, it } from 'vitest';
import { process as fit } from '@glimpse/media';
import * as make from '../../../../test/fixtures/make.js';
import { decodeIndependently } from '../../../../test/support/pixels.js';
import { MIN_RECOVERED_FRACTION } from './truncation.js';

/** Rows (0..height-1) whose pixels are all flat mid grey, as libjpeg fills missing data. */
function greyRows(data: Uint8Array, width: number, height: number): number {
  let grey = 0;
  for (let y = 0; y < height; y++) {
    let flat = true;
    for (let x = 0; x < width && flat; x++) {
      const at = (y * width + x) * 4;
      flat = Math.abs(data[at]! - 128) <= 2 && Math.abs(data[at + 1]! - 128) <= 2 && Math.abs(data[at + 2]! - 128) <= 2;
    }
    if (flat) grey++;
  }
  return grey;
}

describe('truncated JPEG', () => {
  it('sends what arrived with a recovered step and a warning naming the missing part and its share', async () => {
    const jpeg = await make.photoJpeg({ width: 400, height: 600, seed: 3 });
    const cut = jpeg.subarray(0, Math.round(jpeg.length * 0.6));
    const result = await fit(cut);
    expect(result.steps).toContain('recovered');
    const [warning] = result.warnings;
    expect(warning).toMatchObject({ code: 'W_TRUNCATED', missingSide: 'bottom' });
    if (warning?.code !== 'W_TRUNCATED') throw new Error('unreachable');
    const decoded = await decodeIndependently(result.data);
    const missing = greyRows(decoded.data, decoded.width, decoded.height) / decoded.height;
    // The reported share matches the grey rows the output really has (within one 16-row MCU row and JPEG noise).
    expect(Math.abs(1 - warning.recoveredFraction - missing)).toBeLessThan(0.05);
    expect(warning.message).toContain(`bottom ${Math.round((1 - warning.recoveredFraction) * 100)} %`);
  });

  it('names the side the missing rows end up on after EXIF orientation', async () => {
    const jpeg = await make.photoJpeg({ width: 400, height: 300, orientation: 6, seed: 4 });
    const result = await fit(jpeg.subarray(0, Math.round(jpeg.length * 0.7)));
    expect(result.warnings[0]).toMatchObject({ code: 'W_TRUNCATED', missingSide: 'left' });
  });

  it(`refuses as E_CORRUPT when less than ${MIN_RECOVERED_FRACTION * 100} % of the rows arrived`, async () => {
    const jpeg = await make.photoJpeg({ width: 400, height: 600, seed: 5 });
    await expect(fit(jpeg.subarray(0, Math.round(jpeg.length * 0.1)))).rejects.toMatchObject({
      code: 'E_CORRUPT',
      message: expect.stringContaining('truncated'),
    });
  });

  it('a file missing only its end marker is re-encoded without a truncation warning', async () => {
    const jpeg = await make.photoJpeg({ width: 200, height: 150 });
    const result = await fit(jpeg.subarray(0, jpeg.length - 2));
    expect(result.reencoded).toBe(true);
    expect(result.steps).not.toContain('recovered');
    expect(result.warnings.map((w) => w.code)).toEqual(['W_REPAIRED']);
  });
});

/** Mean absolute difference of RGB over rows [from, to) of two RGBA rasters of one width. */
function rowsDifference(a: Uint8Array, b: Uint8Array, width: number, from: number, to: number): number {
  let sum = 0;
  for (let at = from * width * 4; at < to * width * 4; at += 4)
    for (let c = 0; c < 3; c++) sum += Math.abs(a[at + c]! - b[at + c]!);
  return sum / ((to - from) * width * 3);
}

describe('truncated JPEG padded with zeros (a download that preallocated its file)', () => {
  it('the zeros are not decoded as data: every row the warning calls real matches the real image, the rest is grey', async () => {
    const jpeg = await make.photoJpeg({ width: 400, height: 600, seed: 7 });
    const padded = new Uint8Array(jpeg.length); // zeros after the first 40 %
    padded.set(jpeg.subarray(0, Math.round(jpeg.length * 0.4)));
    const result = await fit(padded, { maxEdge: 600 });
    const [warning] = result.warnings;
    if (warning?.code !== 'W_TRUNCATED')
      throw new Error(`expected W_TRUNCATED, got ${JSON.stringify(result.warnings)}`);
    expect(warning.missingSide).toBe('bottom');
    const got = await decodeIndependently(result.data);
    const real = await decodeIndependently(jpeg);
    expect([got.width, got.height]).toEqual([400, 600]);
    const realRows = Math.floor(warning.recoveredFraction * 600);
    expect(realRows).toBeGreaterThan(600 * 0.2);
    for (
      let y = 0;
      y + 20 <= realRows;
      y += 20 // 20-row bands; JPEG noise of a re-encode only
    )
      expect(rowsDifference(got.data, real.data, 400, y, y + 20), `rows ${y}-${y + 20}`).toBeLessThan(6);
    const grey = greyRows(got.data, got.width, got.height) / got.height;
    expect(Math.abs(1 - warning.recoveredFraction - grey)).toBeLessThan(0.05);
  });
});

describe('truncated progressive JPEG', () => {
  it('cut after its first scans: every row is there, with less detail, and the warning says so', async () => {
    const jpeg = await make.photoJpeg({ width: 400, height: 300, progressive: true, seed: 6 });
    const result = await fit(jpeg.subarray(0, Math.round(jpeg.length * 0.8)));
    expect(result.steps).toContain('recovered');
    expect(result.warnings[0]).toMatchObject({ code: 'W_TRUNCATED', recoveredFraction: 1, missingSide: 'none' });
  });

  it('missing only its end marker: no truncation warning', async () => {
    const jpeg = await make.photoJpeg({ width: 400, height: 300, progressive: true, seed: 6 });
    expect((await fit(jpeg.subarray(0, jpeg.length - 2))).steps).not.toContain('recovered');
  });
});
