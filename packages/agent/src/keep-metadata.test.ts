// Metadata on the agent's main path (issue 29 item 7): a photo that already fits is sent as it is, less its
// Exif (GPS), XMP and comments, through view_file, toolResultFrom, fitConversation and the CLI's process and
// prepare; keepMetadata (--keep-metadata) sends it untouched. exiftool is the oracle of what a file carries.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { captureOutput } from '../../../test/support/capture-output.js';
import { exifTags, exiftool, LOCATION_TAGS } from '../../../test/support/exiftool.js';
import { assertStrictlyValid } from '../../../test/support/strict-oracle.js';
import { base64ToBytes } from './base64.js';
import { main } from './cli/main.js';
import { fitConversation } from './fit-conversation.js';
import { MemoryFileSystem } from './fs/memory-file-system.js';
import { toolResultFrom } from './results/tool-result-from.js';
import { viewFile } from './tools/view-file.js';
import type { ImagePart, Message, Part } from './types.js';

const CLAUDE = { provider: 'anthropic' as const, model: 'claude-sonnet-4-5' };

/** The GPS tags exiftool finds in a JPEG. */
const gpsTags = (bytes: Uint8Array) => Object.keys(exifTags(bytes, 'jpg')).filter((tag) => /GPS/.test(tag));

const imageOf = (parts: readonly Part[]): ImagePart => {
  const image = parts.find((part): part is ImagePart => part.type === 'image');
  if (image === undefined) throw new Error('no image part');
  return image;
};
const bytesOf = (image: { data: string }) => base64ToBytes(image.data)!;

/** Every base64 image in a provider request body (objects with an image media type and data). */
function requestImages(value: unknown, found: Uint8Array[] = []): Uint8Array[] {
  if (Array.isArray(value)) for (const item of value) requestImages(item, found);
  else if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if (typeof record.data === 'string' && /^image\//.test(String(record.media_type)))
      found.push(bytesOf(record as { data: string }));
    for (const child of Object.values(record)) requestImages(child, found);
  }
  return found;
}

let photo: Uint8Array;
let dir = '';

beforeAll(async () => {
  const plain = new Uint8Array(
    await sharp({ create: { width: 96, height: 64, channels: 3, background: { r: 200, g: 120, b: 40 } } })
      .jpeg()
      .toBuffer(),
  );
  photo = exiftool(plain, 'jpg', ['-q', '-overwrite_original', ...LOCATION_TAGS]).file;
  expect(gpsTags(photo).length).toBeGreaterThan(0);
  dir = await mkdtemp(join(tmpdir(), 'glimpse-metadata-'));
  await writeFile(join(dir, 'photo.jpg'), photo);
});
afterAll(() => rm(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

describe('metadata on the agent path', () => {
  it('view_file sends a photo that fits without its GPS, and with it under keepMetadata', async () => {
    const fileSystem = new MemoryFileSystem({ cwd: '/desk', files: { '/desk/photo.jpg': photo } });
    const dropped = bytesOf(imageOf((await viewFile({ path: 'photo.jpg' }, { fileSystem, route: CLAUDE })).parts));
    expect(gpsTags(dropped)).toEqual([]);
    assertStrictlyValid(dropped, 'image/jpeg');
    const kept = bytesOf(
      imageOf((await viewFile({ path: 'photo.jpg' }, { fileSystem, route: CLAUDE, keepMetadata: true })).parts),
    );
    expect(kept).toEqual(photo);
  });

  it('toolResultFrom drops it by default and keeps it with limits.keepMetadata', async () => {
    const output = { type: 'image', data: Buffer.from(photo).toString('base64'), mediaType: 'image/jpeg' };
    const result = (keepMetadata?: boolean) =>
      toolResultFrom({
        toolCallId: 'c',
        toolName: 't',
        output: [output] as never,
        preset: 'anthropic',
        ...(keepMetadata !== undefined && { limits: { keepMetadata } }),
      });
    expect(gpsTags(bytesOf(imageOf((await result()).parts)))).toEqual([]);
    expect(bytesOf(imageOf((await result(true)).parts))).toEqual(photo);
  });

  it('fitConversation: an image it fits again is re-encoded, with no metadata, keepMetadata or not', async () => {
    // Too wide for Anthropic's 1568 px: re-encoded, so nothing is left to keep (keepMetadata only spares passthroughs).
    const big = exiftool(
      new Uint8Array(
        await sharp({ create: { width: 3000, height: 200, channels: 3, background: '#246' } })
          .jpeg()
          .toBuffer(),
      ),
      'jpg',
      ['-q', '-overwrite_original', ...LOCATION_TAGS],
    ).file;
    for (const keepMetadata of [false, true]) {
      const messages: Message[] = [
        {
          role: 'user',
          parts: [{ type: 'image', data: Buffer.from(big).toString('base64'), mediaType: 'image/jpeg' }],
        },
      ];
      const fitted = await fitConversation({ messages, provider: 'anthropic', keepMetadata });
      const [first] = fitted.messages;
      if (first?.role !== 'user') throw new Error('expected the user message');
      const sent = bytesOf(imageOf(first.parts));
      expect(gpsTags(sent)).toEqual([]); // re-encoded: no metadata either way
      assertStrictlyValid(sent, 'image/jpeg');
    }
  });

  it('glimpse process drops GPS by default and keeps it with --keep-metadata', async () => {
    for (const [flags, expectGps] of [
      [[], false],
      [['--keep-metadata'], true],
    ] as const) {
      const out = join(dir, `out${expectGps ? '-kept' : ''}.jpg`);
      captureOutput();
      expect(await main(['process', join(dir, 'photo.jpg'), '--preset', 'anthropic', '-o', out, ...flags])).toBe(0);
      vi.restoreAllMocks();
      const written = new Uint8Array(await readFile(out));
      expect(gpsTags(written).length > 0).toBe(expectGps);
      if (expectGps) expect(written).toEqual(photo);
    }
  });

  it('glimpse prepare drops GPS by default and keeps it with --keep-metadata', async () => {
    for (const [flags, expectGps] of [
      [[], false],
      [['--keep-metadata'], true],
    ] as const) {
      const captured = captureOutput();
      const code = await main(['prepare', join(dir, 'photo.jpg'), '--provider', 'anthropic', ...flags]);
      vi.restoreAllMocks();
      expect(code, captured.stderr.join('')).toBe(0);
      const images = requestImages(JSON.parse(captured.stdout.join('')));
      expect(images.length).toBe(1);
      expect(gpsTags(images[0]!).length > 0).toBe(expectGps);
      if (expectGps) expect(images[0]).toEqual(photo);
    }
  });
});
