// The output rule, format by format: an opaque photo from a lossy source becomes JPEG; where there is
// alpha, or the decoder says the source stores its pixels exactly, PNG. Every input here is an opaque
// photo, so losslessness is the only reason for PNG. Files are made by Debian's avifenc, ImageMagick
// (/usr/bin/convert) and sharp; a lossless source must come out with exactly its pixels.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { avifEnc } from '../../../test/fixtures/avif-tools.js';
import { icoBmpEntry, icoFile } from '../../../test/fixtures/ico-writer.js';
import * as make from '../../../test/fixtures/make.js';
import { naturalPixels } from '../../../test/fixtures/pixels.js';
import './entries/node.js';
import { process } from './process.js';

const photo = naturalPixels(96, 64, { seed: 4 });
const rgba = (() => {
  const data = new Uint8Array(photo.width * photo.height * 4);
  for (let i = 0; i < photo.width * photo.height; i++) {
    data.set(photo.data.subarray(i * 3, i * 3 + 3), i * 4);
    data[i * 4 + 3] = 255;
  }
  return data;
})();
let folder: string;
let photoPng: Uint8Array;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'glimpse-output-'));
  photoPng = await make.toBytes(make.fromPixels(photo).png());
  await sharp(photoPng).toFile(join(folder, 'photo.png'));
  return () => rmSync(folder, { recursive: true, force: true });
});

/** A file ImageMagick writes from the photo (`extension` picks the format). */
function magick(extension: string, args: string[] = []): Uint8Array {
  const out = join(folder, `out.${extension}`);
  execFileSync('/usr/bin/convert', [join(folder, 'photo.png'), ...args, out]);
  return new Uint8Array(readFileSync(out));
}

async function pixelsOf(file: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await sharp(file).ensureAlpha().raw().toBuffer());
}

async function withSharpPixels(file: Uint8Array): Promise<{ file: Uint8Array; pixels: Uint8Array }> {
  return { file, pixels: await pixelsOf(file) };
}

/** Processed with the portable preset (which takes PNG, JPEG and WebP as they are, so they pass through). */
async function output(file: Uint8Array, preset: 'portable' | 'ollama' = 'portable') {
  const result = await process(file, { preset });
  return { mediaType: result.mediaType, reencoded: result.reencoded, data: result.data };
}

describe('lossless sources come out as PNG with their exact pixels', () => {
  // Each case: the file, and its pixels as an independent reader (sharp) or the photo it was written from says.
  it.each([
    ['BMP', async () => ({ file: make.encodeBmp(photo), pixels: rgba })],
    ['GIF', async () => withSharpPixels(await make.gif({ width: 96, height: 64 }))],
    [
      'ICO (a BMP entry)',
      async () => ({
        file: icoFile([{ data: icoBmpEntry(photo, 24), width: 96, height: 64, bits: 24 }]),
        pixels: rgba,
      }),
    ],
    ['TIFF, uncompressed', async () => ({ file: magick('tif', ['-compress', 'none']), pixels: rgba })],
    ['TIFF, LZW', async () => ({ file: magick('tif', ['-compress', 'lzw']), pixels: rgba })],
    ['TIFF, Deflate', async () => ({ file: magick('tif', ['-compress', 'zip']), pixels: rgba })],
    ['TIFF, PackBits', async () => ({ file: magick('tif', ['-compress', 'rle']), pixels: rgba })],
    [
      'WebP lossless, on a route without WebP (ollama)',
      async () => withSharpPixels(await make.webp({ width: 96, height: 64, lossless: true })),
    ],
  ])('%s → PNG', async (_name, made) => {
    const { file, pixels } = await made();
    const result = await output(file, 'ollama');
    expect(result).toMatchObject({ mediaType: 'image/png', reencoded: true });
    expect(await pixelsOf(result.data)).toEqual(pixels);
  });

  it('a lossless AVIF (avifenc --lossless: AV1 lossless, 4:4:4, identity matrix) → PNG, every pixel as stored', async () => {
    const result = await output(await avifEnc(photo, ['-l']));
    expect(result).toMatchObject({ mediaType: 'image/png', reencoded: true });
    expect(await pixelsOf(result.data)).toEqual(rgba);
  }, 60_000);

  it('a lossless gray AVIF (4:0:0, full range) → PNG', async () => {
    const result = await output(await avifEnc(photo, ['-l', '-y', '400']));
    expect(result.mediaType).toBe('image/png');
  }, 60_000);
});

describe('lossy sources come out as JPEG', () => {
  it.each([
    ['AVIF 4:2:0', ['-y', '420']],
    ['AVIF 4:4:4 (BT.601 matrix)', ['-y', '444']],
    // AV1's lossless mode keeps the YUV planes exact, not the RGB: subsampled or matrixed colour is lossy.
    ['AVIF coded losslessly but 4:2:0', ['--min', '0', '--max', '0', '-y', '420']],
    ['AVIF coded losslessly but with the BT.601 matrix', ['--min', '0', '--max', '0', '-y', '444']],
  ])(
    '%s → JPEG',
    async (_name, args) => {
      expect((await output(await avifEnc(photo, args))).mediaType).toBe('image/jpeg');
    },
    60_000,
  );

  it('TIFF, JPEG-compressed → JPEG', async () => {
    expect((await output(magick('tif', ['-compress', 'jpeg']))).mediaType).toBe('image/jpeg');
  });

  it('lossy WebP, on a route without WebP (ollama) → JPEG', async () => {
    expect((await output(await make.webp({ width: 96, height: 64 }), 'ollama')).mediaType).toBe('image/jpeg');
  });
});

describe('sources a route takes as they are pass through', () => {
  it('PNG, JPEG and WebP are not re-encoded when they fit', async () => {
    for (const input of [
      photoPng,
      await make.photoJpeg({ width: 96, height: 64 }),
      await make.webp({ width: 96, height: 64 }),
    ]) {
      const result = await output(input);
      expect(result.reencoded).toBe(false);
      expect(result.data).toBe(input);
    }
  });
});
