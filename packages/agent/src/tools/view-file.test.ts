import { PRESETS } from '@glimpse/media';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CapabilitiesQuery } from '../capabilities.js';
import { MemoryFileSystem } from '../fs/memory-file-system.js';
import type { Part } from '../parts.js';
import type { FileToolResult } from './file-tool.js';
import { createFileTools } from './file-tools.js';

const CLAUDE: CapabilitiesQuery = { provider: 'anthropic', model: 'claude-sonnet-4-5' };
const SCREENSHOT = 'Screenshot 2026-11-29 at 10.41.07\u202FPM.png';

const textOf = (result: FileToolResult) => result.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
const media = (result: FileToolResult) => result.parts.filter((p): p is Exclude<Part, { type: 'text' }> => p.type !== 'text');
const decoded = (part: Part) => sharp(Buffer.from(part.type === 'text' ? '' : part.data, 'base64')).metadata();

let fileSystem: MemoryFileSystem;
let jpegBytes: Uint8Array;

beforeAll(async () => {
  const noise = { type: 'gaussian' as const, mean: 128, sigma: 40 };
  jpegBytes = new Uint8Array(await sharp({ create: { width: 3000, height: 2000, channels: 3, background: '#000', noise } }).jpeg({ quality: 90 }).toBuffer());
  const screenshot = new Uint8Array(await sharp({ create: { width: 2880, height: 1800, channels: 4, background: '#3366ccff' } }).png().toBuffer());
  const pdf = await PDFDocument.create();
  for (let i = 1; i <= 5; i++) pdf.addPage([100 + i, 200]);
  const png = new Uint8Array(await sharp({ create: { width: 64, height: 48, channels: 3, background: '#0f0' } }).png().toBuffer());
  fileSystem = new MemoryFileSystem({
    cwd: '/desk',
    files: {
      [`/desk/${SCREENSHOT}`]: screenshot,
      '/desk/photo.jpg': jpegBytes,
      '/desk/mislabelled.png': jpegBytes,
      '/desk/report.pdf': await pdf.save(),
      '/desk/logo.svg': new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="300" height="100"><rect width="300" height="100" fill="#c00"/></svg>'),
      '/desk/garbage.png': Uint8Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 251),
      '/desk/notes.png': new TextEncoder().encode('these are notes, not pixels\n'),
      '/desk/truncated.png': png.slice(0, 60),
      '/desk/small.png': png,
    },
  });
});

describe('view_file', () => {
  it('fits a large photo to the current model preset and says how to map coordinates back', async () => {
    const { viewFile } = createFileTools({ fileSystem, route: CLAUDE });
    const result = await viewFile.execute({ path: 'photo.jpg' });
    expect(result.isError).toBe(false);
    const [image] = media(result);
    expect(image).toMatchObject({ type: 'image', mediaType: 'image/jpeg', width: 1568, height: 1045 });
    const meta = await decoded(image!);
    expect([meta.width, meta.height]).toEqual([1568, 1045]);
    expect(Buffer.from(image!.type === 'image' ? image!.data : '', 'base64').byteLength).toBeLessThanOrEqual(PRESETS.anthropic.maxBytes);
    expect(textOf(result)).toContain('resized from 3000x2000 to 1568x1045');
  });

  it('finds a macOS screenshot typed with a plain space and says which file it read', async () => {
    const { viewFile } = createFileTools({ fileSystem, route: { provider: 'openai-responses', model: 'gpt-5' } });
    const result = await viewFile.execute({ path: 'Screenshot 2026-11-29 at 10.41.07 PM.png' });
    expect(result.isError).toBe(false);
    expect(textOf(result)).toContain('\\u{202F}PM.png');
    const [image] = media(result);
    const meta = await decoded(image!);
    expect(Math.max(meta.width!, meta.height!)).toBeLessThanOrEqual(PRESETS.openai.maxEdge);
  });

  it('reads a mislabelled file by its content with a note, and strict mode refuses naming the rename', async () => {
    const lenient = await createFileTools({ fileSystem, route: CLAUDE }).viewFile.execute({ path: 'mislabelled.png' });
    expect(lenient.isError).toBe(false);
    expect(textOf(lenient)).toContain('mislabelled.png is named like a PNG image but contains a JPEG image');
    expect(media(lenient)[0]).toMatchObject({ type: 'image', mediaType: 'image/jpeg' });

    const strict = await createFileTools({ fileSystem, route: CLAUDE, strict: true }).viewFile.execute({ path: 'mislabelled.png' });
    expect(strict.isError).toBe(true);
    expect(media(strict)).toHaveLength(0);
    expect(textOf(strict)).toMatch(/^E_FILE_TYPE_MISMATCH: .*Rename it to mislabelled\.jpg/);
  });

  it('sends a PDF page range as a smaller PDF holding exactly those pages', async () => {
    const { viewFile } = createFileTools({ fileSystem, route: CLAUDE });
    const whole = await viewFile.execute({ path: 'report.pdf' });
    expect(media(whole)[0]).toMatchObject({ type: 'document', mediaType: 'application/pdf', filename: 'report.pdf', pages: 5 });

    const part = await viewFile.execute({ path: 'report.pdf', pages: '2-3' });
    expect(part.isError).toBe(false);
    expect(textOf(part)).toContain('pages 2, 3 of 5');
    const [document] = media(part);
    expect(document).toMatchObject({ type: 'document', pages: 2 });
    const sliced = await PDFDocument.load(Buffer.from(document!.data, 'base64'));
    expect(sliced.getPages().map((page) => page.getWidth())).toEqual([102, 103]);

    const wrong = await viewFile.execute({ path: 'report.pdf', pages: '4-9' });
    expect(wrong.isError).toBe(true);
    expect(textOf(wrong)).toContain('asks for page 9, but the PDF has 5 pages');
  });

  it('answers a PDF over the preset page limit with the remedy, and its page range goes through', async () => {
    const long = await PDFDocument.create();
    for (let i = 0; i < PRESETS.anthropic.maxPdfPages + 20; i++) long.addPage([100, 100]);
    const fs = new MemoryFileSystem({ files: { '/book.pdf': await long.save() } });
    const { viewFile } = createFileTools({ fileSystem: fs, route: CLAUDE });
    const refused = await viewFile.execute({ path: '/book.pdf' });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/^E_TOO_LARGE: The PDF has 120 pages.*\nCall view_file again with pages \(for example "1-10"\)\.$/);
    const range = await viewFile.execute({ path: '/book.pdf', pages: '101-120' });
    expect(range.isError).toBe(false);
    expect(media(range)[0]).toMatchObject({ type: 'document', pages: 20 });
  });

  it('rasterizes an SVG', async () => {
    const result = await createFileTools({ fileSystem, route: CLAUDE }).viewFile.execute({ path: 'logo.svg' });
    const [image] = media(result);
    expect(image).toMatchObject({ type: 'image', mediaType: 'image/png' });
    const pixels = await sharp(Buffer.from(image!.data, 'base64')).raw().toBuffer({ resolveWithObject: true });
    expect(pixels.info.width / pixels.info.height).toBeCloseTo(3, 1);
    expect([pixels.data[0], pixels.data[1], pixels.data[2]]).toEqual([0xcc, 0, 0]);
  });

  it('turns garbage, corrupt and text files into notes with the reason', async () => {
    const { viewFile } = createFileTools({ fileSystem, route: CLAUDE });
    const garbage = await viewFile.execute({ path: 'garbage.png' });
    expect(garbage).toMatchObject({ isError: true });
    expect(media(garbage)).toHaveLength(0);
    expect(textOf(garbage)).toMatch(/^E_UNSUPPORTED: garbage\.png .*matches no known format/);
    expect(textOf(await viewFile.execute({ path: 'notes.png' }))).toContain('notes.png is a text file, not an image, SVG or PDF. Use read to see it.');
    const corrupt = await viewFile.execute({ path: 'truncated.png' });
    expect(corrupt.isError).toBe(true);
    expect(textOf(corrupt)).toMatch(/^E_CORRUPT/);
  });

  it('is not offered to a text-only model, and refuses at execution when the route changed', async () => {
    let route: CapabilitiesQuery = CLAUDE;
    const tools = createFileTools({ fileSystem, route: () => route });
    expect(tools.definitions().map((d) => d.name)).toEqual(['read', 'view_file']);
    expect(media(await tools.viewFile.execute({ path: 'small.png' }))).toHaveLength(1);

    route = { provider: 'openai-chat', model: 'gpt-3.5-turbo' };
    expect(tools.definitions().map((d) => d.name)).toEqual(['read']);
    const refused = await tools.viewFile.execute({ path: 'small.png' });
    expect(refused.isError).toBe(true);
    expect(media(refused)).toHaveLength(0);
    expect(textOf(refused)).toMatch(/^E_NO_IMAGE_INPUT: view_file is disabled: the current model cannot see images/);

    route = { provider: 'ollama', model: 'llama3.1:8b' };
    expect(textOf(await tools.viewFile.execute({ path: 'small.png' }))).toMatch(/^E_NO_IMAGE_INPUT/);
  });

  it('refuses an unknown model unless the app declares what it sees', async () => {
    const unknown = createFileTools({ fileSystem, route: { provider: 'anthropic', model: 'acme-vision-7b' } });
    expect(unknown.definitions().map((d) => d.name)).toEqual(['read']);
    expect(textOf(await unknown.viewFile.execute({ path: 'small.png' }))).toMatch(/^E_CAPABILITY_UNKNOWN: .*"acme-vision-7b".*capabilities: \{ imageInput: true/);

    const declared = createFileTools({ fileSystem, capabilities: { imageInput: true, pdfInput: false, mediaInToolResults: true, preset: 'ollama' } });
    expect(media(await declared.viewFile.execute({ path: 'small.png' }))).toHaveLength(1);
    expect(textOf(await declared.viewFile.execute({ path: 'report.pdf' }))).toMatch(/^E_NO_PDF_INPUT/);
    expect(textOf(await createFileTools({ fileSystem }).viewFile.execute({ path: 'small.png' }))).toMatch(/^E_CAPABILITY_UNKNOWN/);
  });
});
