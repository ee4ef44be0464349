// The ISO BMFF mutator keeps files readable where it means to: when an edit moves `mdat` (a box removed,
// duplicated or resized inside `meta`), iloc still points at the coded image, so the edit reaches the item
// graph and the codec instead of ending as "truncated".
import '@glimpse/heif';
import { process } from '@glimpse/media';
import { describe, expect, it } from 'vitest';
import { readHeifLayout } from '../../packages/media/src/formats/heif/layout.js';
import { mutateIsobmff } from '../../scripts/fuzz/mutate-isobmff.js';
import { inputSeed, prng } from '../../scripts/fuzz/mutate.js';
import { avifSeeds, heicSeeds } from '../../scripts/fuzz/isobmff-seeds.js';

/** The coded data of every image item the primary is made of, as iloc finds it. */
function codedData(file: Uint8Array): Uint8Array | undefined {
  try {
    const parts = readHeifLayout(file, 'HEIC').parts.filter((part) => !part.inIdat);
    const ranges = parts.flatMap((part) => part.extents);
    if (ranges.length === 0 || ranges.some(({ offset, length }) => offset + length > file.length)) return undefined;
    return Uint8Array.from(ranges.flatMap(({ offset, length }) => [...file.subarray(offset, offset + length)]));
  } catch {
    return undefined;
  }
}

describe('ISO BMFF seeds', () => {
  // A seed the decoder refuses starts every mutation from an error path (heif-enc stores some small
  // sizes as one-tile grids, which once made the writer's grids nest).
  it('every HEIC and AVIF seed decodes to an image', async () => {
    for (const seed of [...(await heicSeeds()), ...(await avifSeeds())]) {
      const result = await process(seed, { maxBytes: 10_000_000 });
      expect(result.width).toBeGreaterThan(0);
    }
  }, 120_000);
});

describe('ISO BMFF mutator', () => {
  it('moves iloc offsets with mdat when meta changes size', async () => {
    const [single] = await heicSeeds();
    if (!single) throw new Error('no seed');
    const coded = codedData(single);
    expect(coded).toBeDefined();
    const moved = { total: 0, found: 0 };
    for (let index = 0; index < 400; index++) {
      const out = mutateIsobmff(single, prng(inputSeed(1, 'heic', index)));
      const metaLengthChanged =
        out.length !== single.length &&
        out.subarray(out.length - 16).every((b, i) => b === single[single.length - 16 + i]);
      if (!metaLengthChanged) continue;
      moved.total++;
      const data = codedData(out);
      if (data && coded && data.length === coded.length && data.every((b, i) => b === coded[i])) moved.found++;
    }
    // Edits that change meta's size (the file's tail, mdat, unchanged). Some remove or break the boxes that
    // lead to the data on purpose; without the iloc follow-up none at all would find it (0 of 84 measured).
    expect(moved.total).toBeGreaterThan(40);
    expect(moved.found / moved.total).toBeGreaterThan(0.3);
  });
});
