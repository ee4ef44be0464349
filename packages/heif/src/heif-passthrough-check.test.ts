// With @glimpse/heif imported, a HEIC the gemini preset would send untouched is first decoded as
// heif-convert decodes it: a file whose HEVC parameter sets are damaged (the boxes still sound) is refused
// under every preset alike, instead of going to Gemini as it came.
import '@glimpse/heif';
import { isMediaError, process, verifyIntegrity } from '@glimpse/media';
import { beforeAll, describe, expect, it } from 'vitest';
import { heifConvert, heifEnc } from '../../../test/fixtures/heif-writer.js';
import { naturalPixels } from '../../../test/fixtures/pixels.js';

let heic: Uint8Array;
let damaged: Uint8Array;

beforeAll(async () => {
  heic = await heifEnc(naturalPixels(96, 64), { quality: 60 });
  // Three bytes inside the hvcC box's sequence parameter set, as a stranger review did it.
  const hvcC = Buffer.from(heic).indexOf('hvcC');
  expect(hvcC).toBeGreaterThan(0);
  damaged = heic.slice();
  damaged.set([0xff, 0x00, 0xa5], hvcC + 70);
}, 60_000);

async function outcome(input: Uint8Array, preset: 'gemini' | 'portable') {
  try {
    const result = await process(input, { preset });
    return { passedThrough: result.data === input, code: undefined };
  } catch (error) {
    return { passedThrough: false, code: isMediaError(error) ? error.code : String(error) };
  }
}

describe('HEIC passthrough with the decoder installed', () => {
  it('refuses, under the gemini preset too, a HEIC that heif-convert cannot decode', async () => {
    await expect(heifConvert(damaged)).rejects.toThrow(); // the oracle refuses it
    expect(await verifyIntegrity(damaged, 'image/heic')).toMatchObject({ fatal: true });
    expect(await outcome(damaged, 'portable')).toEqual({ passedThrough: false, code: 'E_CORRUPT' });
    expect(await outcome(damaged, 'gemini')).toEqual({ passedThrough: false, code: 'E_CORRUPT' });
  });

  it('still passes the sound file through untouched under gemini', async () => {
    expect(await verifyIntegrity(heic, 'image/heic')).toBeUndefined();
    expect(await outcome(heic, 'gemini')).toEqual({ passedThrough: true, code: undefined });
  });
});
