import { PRESETS } from '@glimpse/media';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CapabilitiesQuery } from '../route/capabilities.js';
import { MemoryFileSystem } from '../fs/memory-file-system.js';
import type { Part } from '../types.js';
import type { ToolResult } from '../types.js';
import { createFileTools } from './file-tools.js';
import { viewFile } from './view-file.js';
import { heifEnc } from '../../../../test/fixtures/heif-writer.js';
import { naturalPixels } from '../../../../test/fixtures/pixels.js';
import { lineOfText, scanPdf, textPdf } from '../../../../test/fixtures/pdf-documents.js';

const CLAUDE: CapabilitiesQuery = { provider: 'anthropic', model: 'claude-sonnet-4-5' };
const SCREENSHOT = 'Screenshot 2026-11-29 at 10.41.07\u202FPM.png';

const textOf = (result: ToolResult) => result.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
const media = (result: ToolResult) =>
  result.parts.filter((p): p is Exclude<Part, { type: 'text' }> => p.type !== 'text');
const decoded = (part: Part) => sharp(Buffer.from(part.type === 'text' ? '' : part.data, 'base64')).metadata();

let fileSystem: MemoryFileSystem;
let jpegBytes: Uint8Array;

beforeAll(async () => {
  const noise = { type: 'gaussian' as const, mean: 128, sigma: 40 };
  jpegBytes = new Uint8Array(
    await sharp({ create: { width: 3000, height: 2000, channels: 3, background: '#000', noise } })
      .jpeg({ quality: 90 })
      .toBuffer(),
  );
  const screenshot = new Uint8Array(
    await sharp({ create: { width: 2880, height: 1800, channels: 4, background: '#3366ccff' } })
      .png()
      .toBuffer(),
  );
  const pdf = await PDFDocument.create();
  for (let i = 1; i <= 5; i++) pdf.addPage([100 + i, 200]);
  const png = new Uint8Array(
    await sharp({ create: { width: 64, height: 48, channels: 3, background: '#0f0' } })
      .png()
      .toBuffer(),
  );
  fileSystem = new MemoryFileSystem({
    cwd: '/desk',
    files: {
      [`/desk/${SCREENSHOT}`]: screenshot,
      '/desk/photo.jpg': jpegBytes,
      '/desk/mislabelled.png': jpegBytes,
      '/desk/report.pdf': await pdf.save(),
      '/desk/logo.svg': new TextEncoder().encode(
        '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="100"><rect width="300" height="100" fill="#c00"/></svg>',
      ),
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
    // Claude's working size: 1,568 patches of 28 px (48×32 = 1,536), not 1568×1045 (2,114, shrunk again by the server).
    expect(image).toMatchObject({ type: 'image', mediaType: 'image/jpeg', width: 1344, height: 896 });
    const meta = await decoded(image!);
    expect([meta.width, meta.height]).toEqual([1344, 896]);
    expect(Buffer.from(image!.type === 'image' ? image!.data : '', 'base64').byteLength).toBeLessThanOrEqual(
      PRESETS.anthropic.maxBytes,
    );
    expect(textOf(result)).toContain('resized from 3000x2000 to 1344x896');
  });

  it('finds a macOS screenshot typed with a plain space and says which file it read', async () => {
    const { viewFile } = createFileTools({ fileSystem, route: { provider: 'openai-responses', model: 'gpt-5' } });
    const result = await viewFile.execute({ path: 'Screenshot 2026-11-29 at 10.41.07 PM.png' });
    expect(result.isError).toBe(false);
    expect(textOf(result)).toContain('\\u{202F}PM.png');
    const [image] = media(result);
    const meta = await decoded(image!);
    expect(Math.max(meta.width, meta.height)).toBeLessThanOrEqual(PRESETS.openai.maxEdge);
  });

  it('reads a mislabelled file by its content with a note, and strict mode refuses naming the rename', async () => {
    const lenient = await createFileTools({ fileSystem, route: CLAUDE }).viewFile.execute({ path: 'mislabelled.png' });
    expect(lenient.isError).toBe(false);
    expect(textOf(lenient)).toContain('mislabelled.png is named like a PNG image but contains a JPEG image');
    expect(media(lenient)[0]).toMatchObject({ type: 'image', mediaType: 'image/jpeg' });

    const strict = await createFileTools({ fileSystem, route: CLAUDE, strict: true }).viewFile.execute({
      path: 'mislabelled.png',
    });
    expect(strict.isError).toBe(true);
    expect(media(strict)).toHaveLength(0);
    expect(textOf(strict)).toMatch(/^E_FILE_TYPE_MISMATCH: .*Rename it to mislabelled\.jpg/);
  });

  it('tells the model what it can do with a HEIC the host cannot decode; the developer remedy stays in the error', async () => {
    // No @glimpse/heif in this test file: the core has no HEVC decoder.
    const heic = await heifEnc({ ...naturalPixels(64, 48, { seed: 2 }), channels: 3 });
    const files = new MemoryFileSystem({ files: { '/IMG_0001.HEIC': heic } });
    const outcome = await viewFile({ path: '/IMG_0001.HEIC' }, { fileSystem: files, route: CLAUDE });
    expect(outcome.isError).toBe(true);
    expect(textOf(outcome)).toBe(
      'E_UNSUPPORTED: This HEIC image cannot be shown here: the host has no decoder for it. Ask the user for a JPEG or PNG copy.',
    );
    expect(outcome.error).toMatchObject({
      code: 'E_UNSUPPORTED',
      message: expect.stringContaining('npm install @glimpse/heif'),
    });
  }, 30_000);

  it('sends a PDF page range as a smaller PDF holding exactly those pages', async () => {
    const { viewFile } = createFileTools({ fileSystem, route: CLAUDE });
    const whole = await viewFile.execute({ path: 'report.pdf' });
    expect(media(whole)[0]).toMatchObject({
      type: 'document',
      mediaType: 'application/pdf',
      filename: 'report.pdf',
      pages: 5,
    });

    const part = await viewFile.execute({ path: 'report.pdf', pages: '2-3' });
    expect(part.isError).toBe(false);
    expect(textOf(part)).toContain('pages 2, 3 of 5');
    const [document] = media(part);
    expect(document).toMatchObject({ type: 'document', pages: 2 });
    const sliced = await PDFDocument.load(Buffer.from(document!.data, 'base64'));
    expect(sliced.getPages().map((page) => page.getWidth())).toEqual([102, 103]);

    const wrong = await viewFile.execute({ path: 'report.pdf', pages: '4-9' });
    expect(wrong.isError).toBe(true);
    expect(textOf(wrong)).toContain('asks for page 6, but the PDF has 5 pages');
  });

  it('answers a PDF over the preset page limit with the remedy, and its page range goes through', async () => {
    const long = await PDFDocument.create();
    for (let i = 0; i < PRESETS.anthropic.maxPdfPages + 20; i++) long.addPage([100, 100]);
    const fs = new MemoryFileSystem({ files: { '/book.pdf': await long.save() } });
    const { viewFile } = createFileTools({ fileSystem: fs, route: CLAUDE });
    const refused = await viewFile.execute({ path: '/book.pdf' });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(
      /^E_TOO_LARGE: The PDF has 120 pages.*\nCall view_file again with pages \(for example "1-10"\), or with as: "text" to read its text\.$/,
    );
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
    expect(textOf(await viewFile.execute({ path: 'notes.png' }))).toContain(
      'notes.png is a text file, not an image, SVG or PDF. Use read to see it.',
    );
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
    // The model reads what it can do (read text files); the app's remedy stays in the typed error.
    const refusal = textOf(await unknown.viewFile.execute({ path: 'small.png' }));
    expect(refusal).toMatch(/^E_CAPABILITY_UNKNOWN: .*"acme-vision-7b".*cannot see\. Use read for text files\.$/);
    expect(refusal).not.toMatch(/capabilities:/);
    await expect(
      viewFile({ path: 'small.png' }, { fileSystem, route: { provider: 'anthropic', model: 'acme-vision-7b' } }),
    ).resolves.toMatchObject({
      error: { code: 'E_CAPABILITY_UNKNOWN', message: expect.stringMatching(/capabilities: \{ imageInput: true/) },
    });

    const declared = createFileTools({
      fileSystem,
      capabilities: { imageInput: true, pdfInput: false, mediaInToolResults: true, preset: 'ollama' },
    });
    expect(media(await declared.viewFile.execute({ path: 'small.png' }))).toHaveLength(1);
    // No PDF input: the PDF is read instead (its blank pages have no text layer, so images carry it).
    const read = await declared.viewFile.execute({ path: 'report.pdf' });
    expect(textOf(read)).toContain('report.pdf: PDF, 5 pages');
    expect(media(read)).toHaveLength(3);
    expect(textOf(await createFileTools({ fileSystem }).viewFile.execute({ path: 'small.png' }))).toMatch(
      /^E_CAPABILITY_UNKNOWN/,
    );
  });
});

describe('view_file: PDFs read by glimpse (routes without PDF input, or as: "images" / "text")', () => {
  let pdfs: MemoryFileSystem;
  const OLLAMA_VISION: CapabilitiesQuery = { provider: 'ollama', model: 'gemma3' };
  const OLLAMA_TEXT: CapabilitiesQuery = { provider: 'ollama', model: 'llama3.1:8b' };

  beforeAll(async () => {
    pdfs = new MemoryFileSystem({
      cwd: '/docs',
      files: {
        '/docs/three.pdf': await textPdf({ pages: 3, lines: 4 }),
        '/docs/long.pdf': await textPdf({ pages: 40, lines: 40 }),
        '/docs/scan.pdf': await scanPdf({ width: 340, height: 440 }),
      },
    });
  });

  it('gives a vision model on Ollama the text of every page and an image of each of three pages', async () => {
    const result = await createFileTools({ fileSystem: pdfs, route: OLLAMA_VISION }).viewFile.execute({
      path: 'three.pdf',
    });
    expect(result.isError).toBe(false);
    const text = textOf(result);
    expect(text.split('\n')[0]).toMatch(
      /^three\.pdf: PDF, 3 pages, [\d.]+ KB; text of all 3 pages and images of all 3 pages shown below\.$/,
    );
    expect(text).toContain(
      ['--- page 2 of 3 ---', 'Chapter 2 heading', ...[0, 1, 2, 3].map((line) => lineOfText(1, line))].join('\n'),
    );
    expect(text).toContain('[The images follow in page order: 1, 2, 3.]');
    const images = media(result);
    expect(images.map((part) => [part.type, part.mediaType])).toEqual(Array(3).fill(['image', 'image/png']));
    expect(await decoded(images[0]!)).toMatchObject({ format: 'png', width: 1039, height: 1344 }); // Ollama's 1344 px edge
  });

  it('gives a text-only model the text alone', async () => {
    const result = await createFileTools({ fileSystem: pdfs, route: OLLAMA_TEXT }).viewFile.execute({
      path: 'three.pdf',
    });
    expect(result.isError).toBe(false);
    expect(media(result)).toHaveLength(0);
    expect(textOf(result)).toContain('text of all 3 pages shown below');
    expect(textOf(result)).toContain('--- page 3 of 3 ---\nChapter 3 heading');
  });

  it('shows the first pages of a long PDF within the budget and says how to ask for more', async () => {
    const tools = createFileTools({ fileSystem: pdfs, route: OLLAMA_VISION });
    const first = await tools.viewFile.execute({ path: 'long.pdf' });
    const text = textOf(first);
    expect(text).toMatch(/text of pages 1-\d of 40 and images of pages 1-3 of 40/);
    expect(text).toContain('The PDF has 40 pages. Call view_file again with pages (for example "');
    expect(text.length).toBeLessThan(21_000);
    expect(media(first)).toHaveLength(3);
    const later = await tools.viewFile.execute({ path: 'long.pdf', pages: '30-31' });
    expect(textOf(later)).toContain('text of pages 30-31 of 40 and images of pages 30-31 of 40');
    expect(textOf(later)).toContain('--- page 31 of 40 ---\nChapter 31 heading');
    expect(media(later)).toHaveLength(2);
    expect(textOf(await tools.viewFile.execute({ path: 'long.pdf', pages: '41' }))).toMatch(
      /^E_INVALID_ARGUMENTS: pages "41" asks for page 41, but the PDF has 40 pages/,
    );
  });

  it('says a scan has no text layer and relies on the page image', async () => {
    const result = await createFileTools({ fileSystem: pdfs, route: OLLAMA_VISION }).viewFile.execute({
      path: 'scan.pdf',
    });
    expect(textOf(result)).toContain('[Page 1 has no text layer (scanned or drawn); read them from the page images.]');
    expect(media(result).map((part) => part.mediaType)).toEqual(['image/jpeg']);
  });

  it('on a PDF route: the document by default, page images or text when asked', async () => {
    const tools = createFileTools({ fileSystem: pdfs, route: CLAUDE });
    expect(media(await tools.viewFile.execute({ path: 'three.pdf' })).map((part) => part.type)).toEqual(['document']);
    const images = await tools.viewFile.execute({ path: 'three.pdf', as: 'images', pages: '2' });
    expect(media(images).map((part) => [part.type, part.mediaType])).toEqual([['image', 'image/png']]);
    expect(await decoded(media(images)[0]!)).toMatchObject({ width: 952, height: 1232 }); // Anthropic's 1,568 patches
    expect(textOf(images)).not.toContain('Chapter 2 heading');
    const text = await tools.viewFile.execute({ path: 'three.pdf', as: 'text' });
    expect(media(text)).toHaveLength(0);
    expect(textOf(text)).toContain('Chapter 1 heading');
    expect(textOf(await tools.viewFile.execute({ path: 'three.pdf', as: 'pictures' }))).toMatch(
      /^E_INVALID_ARGUMENTS: view_file needs "as" to be one of "document", "images", "text"/,
    );
  });

  it('turns a password-protected PDF into an error result', async () => {
    const { readFile } = await import('node:fs/promises');
    const locked = new MemoryFileSystem({
      cwd: '/',
      files: {
        '/locked.pdf': new Uint8Array(
          await readFile(new URL('../../../../test/fixtures/encrypted-aes256-password.pdf', import.meta.url)),
        ),
      },
    });
    const result = await createFileTools({ fileSystem: locked, route: OLLAMA_VISION }).viewFile.execute({
      path: 'locked.pdf',
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^E_PDF_ENCRYPTED: The PDF is password-protected/);
  });
});
