// A HEIC passed through to Gemini (issue 29 item 7): its Exif (GPS) and XMP items are blanked in place, so
// nothing moves: exiftool (the oracle) finds no GPS, XMP or author, heif-convert still decodes it, and only
// the metadata items' bytes differ from the input.
import { beforeAll, describe, expect, it } from 'vitest';
import { heifEnc } from '../../../../../test/fixtures/heif-writer.js';
import { naturalPixels } from '../../../../../test/fixtures/pixels.js';
import { exifTags, exiftool, LOCATION_TAGS, METADATA_TAG } from '../../../../../test/support/exiftool.js';
import { assertStrictlyValid } from '../../../../../test/support/strict-oracle.js';
import { process } from '../../process.js';
import { readItemGraph } from './item-graph.js';

let heic: Uint8Array;

beforeAll(async () => {
  const plain = await heifEnc(naturalPixels(64, 48), { quality: 60 });
  heic = exiftool(plain, 'heic', ['-q', '-overwrite_original', ...LOCATION_TAGS]).file;
}, 60_000);

describe('metadata of a HEIC sent as it is', () => {
  it('blanks its Exif and XMP items in place: no GPS left, the image and every offset unchanged', async () => {
    expect(Object.keys(exifTags(heic, 'heic')).filter((tag) => /GPS/.test(tag)).length).toBeGreaterThan(0);
    const result = await process(heic, { preset: 'gemini' });
    expect(result).toMatchObject({ mediaType: 'image/heic', reencoded: false, steps: ['metadata-removed'] });
    expect(result.data.byteLength).toBe(heic.byteLength);
    expect(Object.keys(exifTags(result.data, 'heic')).filter((tag) => METADATA_TAG.test(tag))).toEqual([]);
    assertStrictlyValid(result.data, 'image/heic');
    // The bytes that differ all lie in the Exif and mime items' data.
    const graph = readItemGraph(heic, 'HEIC');
    const inMetadata = (offset: number) =>
      [...graph.infos].some(
        ([id, { type }]) =>
          (type === 'Exif' || type === 'mime') &&
          (graph.locations.get(id)?.extents ?? []).some(
            (extent) => offset >= extent.offset && offset < extent.offset + extent.length,
          ),
      );
    const changed = [...result.data.keys()].filter((offset) => result.data[offset] !== heic[offset]);
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.filter((offset) => !inMetadata(offset))).toEqual([]);
  });

  it('keepMetadata: true sends it untouched', async () => {
    expect((await process(heic, { preset: 'gemini', keepMetadata: true })).data).toBe(heic);
  });
});
