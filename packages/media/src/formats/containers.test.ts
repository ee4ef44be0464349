import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { APP1, jpegHeader, jpegSegment, jpegSegments, SOS } from './jpeg/segments.js';
import { crcMatches, pngChunk, pngChunkList, pngChunks } from './png/chunks.js';
import { copyRiffChunk, riffChunk, webpChunks, webpFile } from './webp/riff.js';

describe('containers', () => {
  it('JPEG: walks a real file to its scan, and a written segment reads back', async () => {
    const jpeg = new Uint8Array(
      await sharp({ create: { width: 8, height: 8, channels: 3, background: '#336699' } })
        .withMetadata({ orientation: 6 })
        .jpeg()
        .toBuffer(),
    );
    const segments = Array.from(jpegSegments(jpeg));
    expect(segments.at(-1)?.marker).toBe(SOS);
    expect(segments.some((segment) => segment.marker === APP1)).toBe(true);
    const header = jpegHeader(jpeg);
    expect(header?.scanStart).toBe(segments.at(-1)?.start);
    const written = jpegSegment(0xe5, Uint8Array.of(1, 2, 3));
    expect(Array.from(written)).toEqual([0xff, 0xe5, 0, 5, 1, 2, 3]);
    expect(jpegHeader(Uint8Array.of(0xff, 0xd8, 0xff, 0xe0, 0, 99))).toBeUndefined(); // a segment past the end
  });

  it('PNG: lists every chunk through IEND with matching CRCs, and refuses a cut chain', async () => {
    const png = new Uint8Array(
      await sharp({ create: { width: 8, height: 8, channels: 4, background: '#33669980' } })
        .png()
        .toBuffer(),
    );
    const chunks = pngChunkList(png) ?? [];
    expect(chunks[0]?.type).toBe('IHDR');
    expect(chunks.at(-1)?.type).toBe('IEND');
    expect(chunks.some((chunk) => chunk.type === 'IDAT')).toBe(true);
    expect(chunks.every((chunk) => crcMatches(png, chunk))).toBe(true);
    expect(pngChunkList(png.subarray(0, png.length - 5))).toBeUndefined();
    expect(() => Array.from(pngChunks(png.subarray(0, png.length - 5)))).toThrow(/truncated/);
    const text = pngChunk('tEXt', new TextEncoder().encode('a\0b'));
    expect(crcMatches(text, { type: 'tEXt', start: 0, data: 8, length: 3, end: text.length })).toBe(true);
  });

  it('RIFF: pads odd chunks, and a file written from chunks reads back the same', async () => {
    expect(riffChunk('ABCD', Uint8Array.of(7)).length).toBe(10);
    const webp = new Uint8Array(
      await sharp({ create: { width: 8, height: 8, channels: 3, background: '#336699' } })
        .webp()
        .toBuffer(),
    );
    const { chunks } = webpChunks(webp);
    const rebuilt = webpFile(chunks.map((chunk) => copyRiffChunk(webp, chunk)));
    expect(Buffer.from(rebuilt).equals(Buffer.from(webp))).toBe(true);
    expect(() => webpChunks(webp.subarray(0, 20))).toThrow(/truncated/);
  });
});
