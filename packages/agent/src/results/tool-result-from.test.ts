import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { base64ToBytes, bytesToBase64 } from '../base64.js';
import type { ImagePart, Part } from '../types.js';
import { toolResultFrom } from './tool-result-from.js';

const rgb = { r: 200, g: 30, b: 30 };
async function png(width: number, height: number): Promise<Uint8Array> {
  return new Uint8Array(
    await sharp({ create: { width, height, channels: 3, background: rgb } })
      .png()
      .toBuffer(),
  );
}
async function pdf(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) doc.addPage([300, 400]);
  return doc.save();
}
async function size(part: Part | undefined): Promise<[number | undefined, number | undefined]> {
  if (part?.type !== 'image') throw new Error(`expected an image part, got ${JSON.stringify(part)?.slice(0, 80)}`);
  const meta = await sharp(base64ToBytes(part.data)!).metadata();
  return [meta.width, meta.height];
}
const result = (
  output: Parameters<typeof toolResultFrom>[0]['output'],
  extra: Partial<Parameters<typeof toolResultFrom>[0]> = {},
) => toolResultFrom({ toolCallId: 'c1', toolName: 'tool', output, ...extra });
const kinds = (parts: Part[]) => parts.map((part) => part.type);
const textOf = (parts: Part[]) => parts.filter((part) => part.type === 'text').map((part) => part.text);

describe('toolResultFrom', () => {
  it('turns a string into one text part', async () => {
    expect(await result('done')).toEqual({
      role: 'toolResult',
      toolCallId: 'c1',
      toolName: 'tool',
      parts: [{ type: 'text', text: 'done' }],
      isError: false,
    });
  });

  it('resizes an oversized screenshot and says how to map coordinates back', async () => {
    const { parts } = await result(
      { text: 'here', attachments: [{ bytes: await png(4000, 2000), filename: 'shot.png' }] },
      { preset: 'anthropic' },
    );
    expect(kinds(parts)).toEqual(['text', 'image', 'text']);
    expect(await size(parts[1])).toEqual([1568, 784]);
    expect(parts[1]).toMatchObject({ mediaType: 'image/png', width: 1568, height: 784 });
    expect(parts[2]).toEqual({
      type: 'text',
      text: '[shot.png was resized from 4000x2000 to 1568x784 px; multiply coordinates in it by 2.551 to get coordinates in the original]',
    });
  });

  it('reports the upright original size of an EXIF-rotated photo', async () => {
    const stored = await sharp({ create: { width: 4000, height: 3000, channels: 3, background: rgb } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const { parts } = await result({ attachments: [{ bytes: new Uint8Array(stored), filename: 'photo.jpg' }] });
    expect(await size(parts[0])).toEqual([1500, 2000]);
    expect(textOf(parts)).toEqual([
      '[photo.jpg was resized from 3000x4000 to 1500x2000 px; multiply coordinates in it by 2 to get coordinates in the original]',
    ]);
  });

  it('tells the model what part of a cut-off photo is missing, and which SVG text could not be drawn', async () => {
    const photo = await sharp({
      create: {
        width: 400,
        height: 600,
        channels: 3,
        background: { r: 128, g: 128, b: 128 },
        noise: { type: 'gaussian', mean: 128, sigma: 40 },
      },
    })
      .jpeg()
      .toBuffer();
    const svg = new TextEncoder().encode(
      '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="40"><text x="4" y="30">你好</text></svg>',
    );
    const { parts } = await result({
      attachments: [
        { bytes: new Uint8Array(photo.subarray(0, Math.round(photo.length * 0.6))), filename: 'cut.jpg' },
        { bytes: svg, filename: 'chart.svg' },
      ],
    });
    expect(kinds(parts)).toEqual(['image', 'image', 'text', 'text']);
    expect(textOf(parts)[0]).toMatch(
      /^\[cut\.jpg: The image file ends early: the bottom \d+ % of the picture is missing and shows as flat grey; only the rest is real\]$/,
    );
    expect(textOf(parts)[1]).toBe(
      '[chart.svg: Some text in the SVG could not be drawn and is missing from the image: no available font has Han (Chinese characters) characters]',
    );
  });

  it('picks the preset from the route when given a provider', async () => {
    const { parts } = await result(
      { attachments: [{ bytes: await png(5000, 100) }] },
      { provider: 'openai-chat', model: 'gpt-4.1' },
    );
    expect(await size(parts[0])).toEqual([2048, 41]);
    expect(textOf(parts)[0]).toMatch(/^\[attachment 1 was resized from 5000x100 to 2048x41 px/);
  });

  it('sends base64 data and data URLs through the pipeline too', async () => {
    const big = bytesToBase64(await png(3000, 1000));
    const { parts } = await result({ attachments: [{ data: big }, { data: `data:image/png;base64,${big}` }] });
    expect(kinds(parts)).toEqual(['image', 'image', 'text', 'text']);
    expect(await size(parts[0])).toEqual([2000, 667]);
    expect(await size(parts[1])).toEqual([2000, 667]);
  });

  it('re-processes image parts a tool built itself: nothing bypasses the pipeline', async () => {
    const handMade: ImagePart = { type: 'image', mediaType: 'image/png', data: bytesToBase64(await png(2600, 2600)) };
    const { parts } = await result([{ type: 'text', text: 'plot' }, handMade], { preset: 'portable' });
    expect(kinds(parts)).toEqual(['text', 'image', 'text']);
    expect(await size(parts[1])).toEqual([2000, 2000]);
  });

  it('keeps an image that already fits byte for byte', async () => {
    const small = await png(300, 200);
    const { parts } = await result({ attachments: [{ bytes: small }] });
    expect(parts).toEqual([
      { type: 'image', mediaType: 'image/png', data: bytesToBase64(small), width: 300, height: 200 },
    ]);
  });

  it('reads MCP content: images by mimeType, embedded PDF and text resources, links; skips audio with a note', async () => {
    const shot = bytesToBase64(await png(2400, 1200));
    const report = bytesToBase64(await pdf(3));
    const { parts, isError } = await result({
      content: [
        { type: 'text', text: 'page captured' },
        { type: 'image', data: shot, mimeType: 'image/png' },
        { type: 'resource', resource: { uri: 'file:///docs/report.pdf', mimeType: 'application/pdf', blob: report } },
        { type: 'resource', resource: { uri: 'file:///notes.txt', text: 'note text' } },
        { type: 'resource_link', uri: 'https://example.com/a', name: 'a page' },
        { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
      ],
      isError: true,
    });
    expect(isError).toBe(true);
    expect(kinds(parts)).toEqual(['text', 'image', 'document', 'text', 'text', 'text', 'text']);
    expect(await size(parts[1])).toEqual([2000, 1000]);
    expect(parts[2]).toEqual({
      type: 'document',
      mediaType: 'application/pdf',
      data: report,
      filename: 'report.pdf',
      pages: 3,
    });
    expect(textOf(parts)).toEqual([
      'page captured',
      'note text',
      '[resource: a page <https://example.com/a>]',
      '[attachment 1 was resized from 2400x1200 to 2000x1000 px; multiply coordinates in it by 1.2 to get coordinates in the original]',
      '[skipped audio/wav content: audio is not attached]',
    ]);
  });

  it('turns failed attachments into notes and keeps the rest of the result', async () => {
    const { parts, isError } = await result({
      text: 'three files',
      attachments: [
        { bytes: new TextEncoder().encode('definitely not an image'), filename: 'x.bin' },
        { data: '@@not base64@@', filename: 'broken.png' },
        { bytes: await png(10, 10), filename: 'ok.png' },
      ],
    });
    expect(isError).toBe(false);
    expect(kinds(parts)).toEqual(['text', 'image', 'text', 'text']);
    const [, unsupported, corrupt] = textOf(parts);
    expect(unsupported).toMatch(/^\[could not attach x\.bin: unsupported format \(E_UNSUPPORTED\)\. .+\]$/);
    expect(corrupt).toBe(
      '[could not attach broken.png: the file is damaged (E_CORRUPT). Its data is not valid base64.]',
    );
  });

  it('notes a PDF the route cannot take instead of failing', async () => {
    const { parts } = await result({ attachments: [{ bytes: await pdf(1), filename: 'a.pdf' }] }, { preset: 'ollama' });
    expect(kinds(parts)).toEqual(['text']);
    expect(textOf(parts)[0]).toMatch(/^\[could not attach a\.pdf: .*\(E_[A-Z_]+\)/);
  });

  it('reads a text attachment as text', async () => {
    const { parts } = await result({
      attachments: [{ bytes: new TextEncoder().encode('{"a":1}'), mediaType: 'application/json', filename: 'a.json' }],
    });
    expect(parts).toEqual([{ type: 'text', text: 'a.json:\n{"a":1}' }]);
  });

  it('truncates long tool text but never media or notes', async () => {
    const long = 'x'.repeat(200);
    const { parts } = await result(
      { text: long, attachments: [{ bytes: await png(3000, 10) }] },
      { truncate: { maxChars: 50 } },
    );
    expect(kinds(parts)).toEqual(['text', 'image', 'text']);
    expect(textOf(parts)[0]).toBe(`${'x'.repeat(25)}\n[… 150 characters of tool output cut here …]\n${'x'.repeat(25)}`);
    expect(await size(parts[1])).toEqual([2000, 7]);
    expect(textOf(parts)[1]).toMatch(/^\[attachment 1 was resized/);
    expect(textOf((await result({ text: long, attachments: [] }, { truncate: false })).parts)).toEqual([long]);
  });

  it('names unreadable outputs in a note rather than throwing', async () => {
    // A JavaScript tool or an MCP server can return anything; JSON stands in for that untyped input.
    const { parts } = await result(JSON.parse('[{"type":"video","data":"x"}]'));
    expect(textOf(parts)).toEqual(['[skipped content of type "video": not text, image, PDF or resource]']);
  });
});
