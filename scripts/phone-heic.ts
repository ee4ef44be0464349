// The 12 MP photo an iPhone saves, as HEIC: 4032×3024 stored as an 8×6 grid of 512×512 HEVC tiles (the last
// column and row overhang the picture), turned upright by irot (a portrait shot: 270° anticlockwise), with
// the Exif item saying orientation 6 too (readers must apply irot only) and a 320×240 thumbnail item.
// heif-enc 1.15 (Debian's libheif-examples) cannot tile, so each tile is its own heif-enc image and the
// test HEIF writer assembles the grid around the coded tiles. Pixels: the bench's photo (bench-inputs.mjs).
// Usage: node scripts/run-ts.mjs scripts/phone-heic.ts OUT.heic   (scripts/bench-inputs.mjs calls it)
import { renameSync, writeFileSync } from 'node:fs';
import sharp from 'sharp';
import { exifTiff } from '../test/fixtures/make.js';
import { codedImageOf, gridHeif, heifEnc } from '../test/fixtures/heif-writer.js';
import { photoPixels } from './bench-inputs.mjs';

const WIDTH = 4032;
const HEIGHT = 3024;

async function phoneHeic(): Promise<Uint8Array> {
  const data = new Uint8Array(photoPixels(WIDTH, HEIGHT));
  const thumbnail = await sharp(data, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } })
    .resize(320, 240)
    .raw()
    .toBuffer();
  const coded = await heifEnc(
    { data: new Uint8Array(thumbnail), width: 320, height: 240, channels: 3 },
    { quality: 50 },
  );
  return gridHeif({ data, width: WIDTH, height: HEIGHT }, 512, {
    quality: 50,
    rotate: 3,
    thumbnail: codedImageOf(coded),
    exif: exifTiff(6),
  });
}

const out = globalThis.process.argv[2];
if (!out) throw new Error('usage: node scripts/run-ts.mjs scripts/phone-heic.ts OUT.heic');
writeFileSync(`${out}.partial`, await phoneHeic());
renameSync(`${out}.partial`, out);
