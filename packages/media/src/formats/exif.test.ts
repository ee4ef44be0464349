import { describe, expect, it } from 'vitest';
import { readExifOrientation, readTiffIfd0 } from './exif.js';
import { exifTiff } from '../../../../test/fixtures/make.js';

describe('readExifOrientation', () => {
  it.each([1, 2, 3, 4, 5, 6, 7, 8])(
    'reads orientation %i in both byte orders, with or without the Exif prefix',
    (orientation) => {
      expect(readExifOrientation(exifTiff(orientation, { littleEndian: true }))).toBe(orientation);
      expect(readExifOrientation(exifTiff(orientation, { littleEndian: false }))).toBe(orientation);
      expect(readExifOrientation(exifTiff(orientation, { exifPrefix: true }))).toBe(orientation);
    },
  );

  it('treats out-of-range values as upright', () => {
    expect(readExifOrientation(exifTiff(0))).toBe(1);
    expect(readExifOrientation(exifTiff(9))).toBe(1);
    expect(readExifOrientation(exifTiff(0xffff))).toBe(1);
  });

  it('returns 1 for missing, truncated or hostile metadata instead of throwing', () => {
    const good = exifTiff(6);
    expect(readExifOrientation(new Uint8Array(0))).toBe(1);
    for (let cut = 0; cut < good.length; cut++) expect([1, 6]).toContain(readExifOrientation(good.subarray(0, cut)));
    expect(readExifOrientation(good.subarray(0, 19))).toBe(1); // value cut off
    const badMagic = good.slice();
    badMagic[3] = 43;
    expect(readExifOrientation(badMagic)).toBe(1);
    const farOffset = good.slice();
    new DataView(farOffset.buffer).setUint32(4, 0xfffffff0);
    expect(readExifOrientation(farOffset)).toBe(1);
    const hugeCount = good.slice();
    new DataView(hugeCount.buffer).setUint16(8, 0xffff);
    expect(readExifOrientation(hugeCount)).toBe(6);
  });

  it('reads the first value of SHORT and LONG tags from IFD0', () => {
    const tags = readTiffIfd0(exifTiff(3, { littleEndian: true }));
    expect(tags.get(0x0112)).toBe(3);
    expect(tags.size).toBe(1);
  });
});
