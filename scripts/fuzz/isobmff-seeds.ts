// The fuzzer's HEIC and AVIF seeds: small files from Debian's heif-enc and avifenc (libheif-examples,
// libavif-bin), plus what phones write and those tools cannot (grids with overhanging tiles, irot/imir,
// clap), assembled by the test HEIF writer from heif-enc's coded images. Every encoder runs single-threaded
// at fixed settings, so the seeds are the same bytes on every run.
import { avifEnc } from '../../test/fixtures/avif-tools.js';
import { codedImageOf, gridHeif, heifEnc, writeHeif } from '../../test/fixtures/heif-writer.js';
import { naturalPixels } from '../../test/fixtures/pixels.js';
import { miniAvif } from '../../test/fixtures/avif-mini.js';

/** One coded image, a grid, every transformation, alpha, 10-bit and a thumbnail. */
export async function heicSeeds(): Promise<Uint8Array[]> {
  // heif-enc 1.15 stores some sizes (40×28, 64×48) as a one-tile grid with the data in idat; 96×64 and
  // 64×64 come out as one coded image, which is what the writer builds grids and transformations from.
  const coded = codedImageOf(await heifEnc(naturalPixels(96, 64), { quality: 60 }));
  return [
    await heifEnc(naturalPixels(40, 28), { quality: 60 }),
    await gridHeif(naturalPixels(136, 72, { seed: 2 }), 64, { quality: 50, rotate: 3 }),
    writeHeif({ tiles: [coded], rotate: 1, mirror: 0, clap: { width: 80, height: 48 } }),
    await heifEnc(naturalPixels(32, 24, { channels: 4, seed: 3 }), { quality: 60 }),
    await heifEnc(naturalPixels(32, 24, { seed: 4 }), { quality: 60, sixteenBit: true }),
    await heifEnc(naturalPixels(48, 32, { seed: 5 }), { quality: 50, args: ['-t', '16'] }),
  ];
}

/** 8-bit, 10-bit with alpha, 12-bit 4:4:4, monochrome, lossless, two grids, and irot/imir/clap. */
export async function avifSeeds(): Promise<Uint8Array[]> {
  return Promise.all([
    avifEnc(naturalPixels(40, 28)),
    avifEnc(naturalPixels(32, 24, { channels: 4, seed: 2 }), ['-d', '10']),
    avifEnc(naturalPixels(24, 16, { seed: 3 }), ['-d', '12', '-y', '444']),
    avifEnc(naturalPixels(24, 16, { seed: 4 }), ['-y', '400']),
    avifEnc(naturalPixels(16, 16, { seed: 5 }), ['-l']),
    avifEnc(naturalPixels(128, 64, { seed: 6 }), ['-g', '2x1']), // cells must be 64×64 or more
    gridHeif(naturalPixels(40, 24, { seed: 8 }), 16, { brand: 'avif', quality: 50 }), // overhanging tiles
    avifEnc(naturalPixels(32, 24, { seed: 7 }), ['--irot', '1', '--imir', '0', '--crop', '2,2,28,20']),
    // The compact form (a mif3 `mini` box), with alpha and an orientation.
    avifEnc(naturalPixels(24, 20, { channels: 4, seed: 9 })).then((file) => miniAvif(file, { orientation: 6 })),
  ]);
}
