// Metadata in what is sent (issue 29 item 7): a JPEG, PNG or WebP that fits goes as it is, less its Exif
// (GPS), XMP, IPTC, text and comments, cut out whole; the colour profile stays, the pixels are the same bytes;
// keepMetadata: true sends it untouched. exiftool (Debian's libimage-exiftool-perl) is the oracle of what
// a file carries, the strict oracle (djpeg -strict, pngcheck, webpinfo + dwebp) of whether it still reads.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { exifTags, exiftool, LOCATION_TAGS, METADATA_TAG } from '../../../../test/support/exiftool.js';
import { assertStrictlyValid } from '../../../../test/support/strict-oracle.js';
import { failsWith } from '../../../../test/support/typed-errors.js';
import '../entries/node.js';
import { MediaError } from '../errors.js';
import { webpChunks } from '../formats/webp/riff.js';
import { process } from '../process.js';

type Kind = 'jpg' | 'png' | 'webp';

const tags = exifTags;

/** A small photo-like image in `kind`, with an ICC profile where the format carries one, and the metadata above written by exiftool. */
async function photoWithLocation(kind: Kind, extra: string[] = []): Promise<Uint8Array> {
  const image = sharp({ create: { width: 96, height: 64, channels: 3, background: { r: 200, g: 120, b: 40 } } })
    .composite([
      {
        input: Buffer.from([0, 0, 255, 255]),
        raw: { width: 1, height: 1, channels: 4 },
        tile: true,
        left: 10,
        top: 10,
      },
    ])
    .withIccProfile('p3');
  const plain = new Uint8Array(
    await (kind === 'jpg' ? image.jpeg() : kind === 'png' ? image.png() : image.webp()).toBuffer(),
  );
  return exiftool(plain, kind, [
    '-q',
    '-overwrite_original',
    ...LOCATION_TAGS,
    ...(kind === 'jpg' ? ['-IPTC:Keywords=home'] : []),
    ...extra,
  ]).file;
}

const MEDIA_TYPES: Record<Kind, string> = { jpg: 'image/jpeg', png: 'image/png', webp: 'image/webp' };

/** Whether `part` is `whole` with some bytes left out: every byte of it in order (the rest unchanged). */
function isSubsequence(part: Uint8Array, whole: Uint8Array): boolean {
  let at = 0;
  for (const byte of part) {
    while (at < whole.length && whole[at] !== byte) at++;
    if (at++ >= whole.length) return false;
  }
  return true;
}

async function pixels(bytes: Uint8Array): Promise<Buffer> {
  return sharp(bytes).raw().toBuffer();
}

describe('metadata in files sent as they are', () => {
  it.each(['jpg', 'png', 'webp'] as const)(
    '%s: Exif (GPS), XMP and comments are cut out, the profile and pixels kept',
    async (kind) => {
      const input = await photoWithLocation(kind);
      const before = tags(input, kind);
      expect(Object.keys(before).filter((tag) => /GPS/.test(tag)).length).toBeGreaterThan(0);
      const result = await process(input, { preset: 'anthropic' });
      expect(result).toMatchObject({ mediaType: MEDIA_TYPES[kind], reencoded: false, steps: ['metadata-removed'] });
      expect(result.bytes).toBe(result.data.byteLength);
      expect(result.bytes).toBeLessThan(input.byteLength);
      const after = tags(result.data, kind);
      expect(Object.keys(after).filter((tag) => METADATA_TAG.test(tag))).toEqual([]);
      expect(after['File:Warning'] ?? after['ExifTool:Warning']).toBeUndefined();
      if (kind !== 'png')
        expect(after['ICC_Profile:ProfileDescription']).toBe(before['ICC_Profile:ProfileDescription']);
      assertStrictlyValid(result.data, MEDIA_TYPES[kind]);
      expect((await pixels(result.data)).equals(await pixels(input))).toBe(true);
      if (kind === 'webp') {
        // The chunks left are the input's, VP8X's flags aside (which no longer announce EXIF and XMP).
        const chunks = (bytes: Uint8Array) =>
          webpChunks(bytes).chunks.map((chunk) => ({
            type: chunk.type,
            payload: Buffer.from(
              bytes.subarray(chunk.offset + (chunk.type === 'VP8X' ? 1 : 0), chunk.offset + chunk.length),
            ),
          }));
        expect(chunks(result.data)).toEqual(chunks(input).filter(({ type }) => type !== 'EXIF' && type !== 'XMP '));
        expect(result.data[20]! & 0x0c).toBe(0);
      } else {
        // Only whole segments or chunks are left out: every byte sent is the input's, in order.
        expect(isSubsequence(result.data, input)).toBe(true);
      }
    },
    60_000,
  );

  it("webp: ImageMagick 6's 'XMP\\0' chunk (its name for XMP) goes too, GPS inside it", async () => {
    const input = await photoWithLocation('webp');
    const xmp = webpChunks(input).chunks.find((chunk) => chunk.type === 'XMP ');
    expect(xmp).toBeDefined();
    // 'XMP ' → 'XMP\0', and VP8X no longer announcing XMP, as ImageMagick 6.9 writes it
    input[xmp!.start + 3] = 0;
    const vp8x = webpChunks(input).chunks.find((chunk) => chunk.type === 'VP8X');
    input[vp8x!.offset] = input[vp8x!.offset]! & ~0x04;
    expect(Buffer.from(input).includes('GPSLatitude')).toBe(true);
    const result = await process(input, { preset: 'anthropic' });
    expect(result).toMatchObject({ mediaType: 'image/webp', reencoded: false, steps: ['metadata-removed'] });
    expect(webpChunks(result.data).chunks.map((chunk) => chunk.type)).not.toContain('XMP\0');
    expect(Buffer.from(result.data).includes('GPSLatitude')).toBe(false);
    assertStrictlyValid(result.data, 'image/webp');
  });

  it('gif: comments and XMP are cut out, the other blocks and the pixels kept', async () => {
    const plain = new Uint8Array(
      await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 10, g: 200, b: 90 } } })
        .gif()
        .toBuffer(),
    );
    const input = exiftool(plain, 'gif', [
      '-q',
      '-overwrite_original',
      '-XMP:Creator=A. Photographer',
      '-XMP:GPSLatitude=48.8584',
      '-Comment=taken at home',
    ]).file;
    expect(Object.keys(tags(input, 'gif')).filter((tag) => METADATA_TAG.test(tag)).length).toBeGreaterThan(0);
    const withTrailing = new Uint8Array([...input, ...new TextEncoder().encode('GPS 48.8584 2.2945')]);
    const result = await process(withTrailing, { preset: 'anthropic' });
    expect(result).toMatchObject({ mediaType: 'image/gif', reencoded: false, steps: ['metadata-removed'] });
    expect(Object.keys(tags(result.data, 'gif')).filter((tag) => METADATA_TAG.test(tag))).toEqual([]);
    expect(Buffer.from(result.data).indexOf(Buffer.from('GPS'))).toBe(-1);
    assertStrictlyValid(result.data, 'image/gif');
    expect(isSubsequence(result.data, input)).toBe(true);
    expect((await pixels(result.data)).equals(await pixels(input))).toBe(true);
  });

  it('a PNG keeps its iCCP chunk (its profile) while its text chunks go', async () => {
    const input = await photoWithLocation('png');
    const profile = (bytes: Uint8Array) =>
      sharp(bytes)
        .metadata()
        .then((meta) => meta.icc);
    const result = await process(input, { preset: 'anthropic' });
    expect(await profile(result.data)).toEqual(await profile(input));
    expect(await profile(input)).toBeDefined();
  });

  it('keepMetadata: true sends the file untouched; a value that is not a boolean is E_INVALID_OPTIONS', async () => {
    const input = await photoWithLocation('jpg');
    const kept = await process(input, { preset: 'anthropic', keepMetadata: true });
    expect(kept.data).toBe(input);
    expect(kept.steps).toEqual([]);
    const error = await failsWith(
      process(input, { keepMetadata: 'yes' as unknown as boolean }),
      MediaError,
      'E_INVALID_OPTIONS',
    );
    expect(error.message).toMatch(/keepMetadata/);
  });

  it("drops what follows a JPEG's EOI (an appended picture with its own GPS)", async () => {
    const first = await photoWithLocation('jpg');
    const second = await photoWithLocation('jpg', ['-GPSLatitude=51.5']);
    const input = new Uint8Array([...first, ...second]);
    const result = await process(input, { preset: 'anthropic' });
    expect(result.reencoded).toBe(false);
    expect(result.data.byteLength).toBeLessThan(first.byteLength);
    expect(Buffer.from(result.data).indexOf(Buffer.from('Exif\0'))).toBe(-1);
    assertStrictlyValid(result.data, 'image/jpeg');
  });

  it('a turned JPEG is re-encoded upright, with no Exif left to turn it again or say where it was', async () => {
    const input = await photoWithLocation('jpg', ['-Orientation#=6']);
    const result = await process(input, { preset: 'anthropic' });
    expect(result).toMatchObject({ width: 64, height: 96, reencoded: true });
    expect(result.steps).toContain('oriented');
    expect(
      Object.keys(tags(result.data, 'jpg')).filter((tag) => METADATA_TAG.test(tag) || /Orientation/.test(tag)),
    ).toEqual([]);
  });

  it('a file with no metadata goes as the same bytes, with no step', async () => {
    const plain = new Uint8Array(
      await sharp({ create: { width: 8, height: 8, channels: 3, background: 'white' } })
        .png()
        .toBuffer(),
    );
    const result = await process(plain, { preset: 'anthropic' });
    expect(result.data).toBe(plain);
    expect(result.steps).toEqual([]);
  });
});
