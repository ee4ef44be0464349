// Refusals of AVIF, HEIC/HEIF and TIFF files glimpse cannot convert: each says accurately which providers
// take the format as it is (from the route table: none for AVIF and TIFF, Gemini for HEIC/HEIF) and what
// to do. Files from Debian's avifenc and heif-enc, and ImageMagick (/usr/bin/convert).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { avifSequence } from '../../../test/fixtures/avif-tools.js';
import { heifEnc } from '../../../test/fixtures/heif-writer.js';
import { rebranded, withoutBox } from '../../../test/fixtures/isobmff-surgery.js';
import { naturalPixels } from '../../../test/fixtures/pixels.js';
import './entries/node.js';
import { MediaError } from './errors.js';
import { probe } from './probe.js';
import { process } from './process.js';
import { failsWith } from '../../../test/support/typed-errors.js';

describe('AVIF', () => {
  it('an animation with a still first frame is read as that still', async () => {
    const animated = await avifSequence([naturalPixels(40, 30, { seed: 1 }), naturalPixels(40, 30, { seed: 2 })]);
    expect(await process(animated)).toMatchObject({
      mediaType: 'image/jpeg',
      width: 40,
      height: 30,
      original: { frames: 2 },
      steps: ['first-frame', 'converted'],
    });
    const three = await avifSequence([1, 2, 3].map((seed) => naturalPixels(40, 30, { seed })));
    expect(await probe(three)).toMatchObject({ frames: 3 });
  }, 60_000);

  it('an animation with no still image (no meta box) is unsupported, not damaged, and says what to do', async () => {
    const animated = await avifSequence([naturalPixels(40, 30, { seed: 1 }), naturalPixels(40, 30, { seed: 2 })]);
    const error = await failsWith(process(withoutBox(animated, 'meta')), MediaError);
    expect(error.code).toBe('E_UNSUPPORTED');
    expect(error.message).toBe(
      'This AVIF is an animation (an image sequence) with no still image. glimpse reads only AVIF still images, and sends no animations. No provider takes AVIF as it is. Save one frame as PNG or JPEG (for example `ffmpeg -i in.avif -frames:v 1 frame.png`) and send that.',
    );
  }, 60_000);

  it('an image glimpse does not decode (HEVC tiles in an AVIF-branded file) says no provider takes AVIF', async () => {
    const hevcInside = rebranded(await heifEnc(naturalPixels(40, 30), { quality: 60 }), 'heic', 'avif');
    const error = await failsWith(process(hevcInside), MediaError);
    expect(error.code).toBe('E_UNSUPPORTED');
    expect(error.message).toBe(
      "The AVIF's grid tile 1 is a 'hvc1' item, which glimpse does not decode (it decodes AV1 images and grids of them). No provider takes AVIF as it is. Convert it to PNG or JPEG with the app that made it.",
    );
  }, 60_000);
});

describe('HEIF', () => {
  it('a sequence with no still image names Gemini as the preset that takes HEIF stills', async () => {
    const animated = await avifSequence([naturalPixels(40, 30, { seed: 1 }), naturalPixels(40, 30, { seed: 2 })]);
    const sequence = rebranded(rebranded(withoutBox(animated, 'meta'), 'avis', 'msf1'), 'avif', 'mif1');
    const error = await failsWith(process(sequence), MediaError);
    expect(error.code).toBe('E_UNSUPPORTED');
    expect(error.message).toContain('This HEIF is an animation (an image sequence) with no still image.');
    expect(error.message).toContain("The gemini preset takes HEIF as it is, within its limits (preset: 'gemini').");
  }, 60_000);
});

describe('TIFF', () => {
  it('a compression the decoder lacks (ZSTD) says no provider takes TIFF, and to convert it', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'glimpse-tiff-'));
    try {
      execFileSync('/usr/bin/convert', [
        '-size',
        '16x16',
        'gradient:red-blue',
        '-compress',
        'zstd',
        join(folder, 'out.tif'),
      ]);
      const error = await failsWith(process(new Uint8Array(readFileSync(join(folder, 'out.tif')))), MediaError);
      expect(error.code).toBe('E_UNSUPPORTED');
      expect(error.message).toBe(
        "The TIFF uses something glimpse's decoder does not support (ZSTD compression, code 50000, is not supported). No provider takes TIFF as it is. Convert it to PNG or JPEG with the app that made it.",
      );
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
