import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { MediaError, renderPdfPage } from '@glimpse/media';
import {
  largePagePdf,
  rotatedPdf,
  scanPdf,
  textPdf,
  truncated,
  vectorPdf,
} from '../../../test/fixtures/pdf-documents.js';
import { failsWith } from '../../../test/support/typed-errors.js';

const fixture = (name: string) =>
  new Uint8Array(readFileSync(new URL(`../../../test/fixtures/${name}`, import.meta.url)));

/** What sharp (libvips, an independent decoder) reads from the output. */
async function decoded(data: Uint8Array) {
  const { format, width, height } = await sharp(data).metadata();
  return { format, width, height };
}

describe('renderPdfPage', () => {
  it('renders a text page as a PNG whose long side is the preset’s maxEdge', async () => {
    const result = await renderPdfPage(await textPdf({ pages: 2 }), 2);
    expect(result).toMatchObject({
      mediaType: 'image/png',
      width: 1545,
      height: 2000,
      reencoded: true,
      steps: ['rasterized'],
    });
    expect(result.original).toEqual({
      mediaType: 'application/pdf',
      width: 612,
      height: 792,
      bytes: expect.any(Number),
      orientation: 1,
      frames: 1,
      pages: 2,
    });
    expect(await decoded(result.data)).toEqual({ format: 'png', width: 1545, height: 2000 });
    // Ink on white: the page is mostly white, with dark text.
    const { data } = await sharp(result.data).greyscale().raw().toBuffer({ resolveWithObject: true });
    const white = data.filter((value) => value > 240).length / data.length;
    expect(white).toBeGreaterThan(0.8);
    expect(data.some((value) => value < 60)).toBe(true);
  });

  it('fits the preset or an explicit maxEdge', async () => {
    const bytes = await vectorPdf();
    expect(await renderPdfPage(bytes, 1, { preset: 'ollama' })).toMatchObject({ width: 1039, height: 1344 });
    expect(await renderPdfPage(bytes, 1, { maxEdge: 500 })).toMatchObject({ width: 386, height: 500 });
  });

  it('sends a scanned page as JPEG', async () => {
    const result = await renderPdfPage(await scanPdf(), 1);
    expect(result.mediaType).toBe('image/jpeg');
    expect(await decoded(result.data)).toEqual({ format: 'jpeg', width: 1545, height: 2000 });
  });

  it('turns pages by their /Rotate', async () => {
    const bytes = await rotatedPdf();
    const sizes = [];
    for (const page of [1, 2, 3, 4]) {
      const { width, height } = await renderPdfPage(bytes, page, { maxEdge: 400 });
      sizes.push([width, height]);
    }
    expect(sizes).toEqual([
      [309, 400],
      [400, 309],
      [309, 400],
      [400, 309],
    ]);
  });

  it('renders a 200-inch page and a larger-than-allowed MediaBox at maxEdge, not at their size in points', async () => {
    expect(await renderPdfPage(await largePagePdf(14_400, 14_400), 1)).toMatchObject({ width: 2000, height: 2000 });
    expect(await renderPdfPage(await largePagePdf(1_000_000, 500_000), 1)).toMatchObject({ width: 2000, height: 1000 });
    expect(await renderPdfPage(await largePagePdf(14_400, 3), 1)).toMatchObject({ width: 2000, height: 1 });
  });

  it('refuses a maxEdge whose bitmap would pass the pixel budget', async () => {
    const error = await failsWith(renderPdfPage(await textPdf(), 1, { maxEdge: 60_000 }), MediaError);
    expect(error.code).toBe('E_TOO_MANY_PIXELS');
    expect(error.message).toContain('Lower maxEdge');
  });

  it('fits maxBytes like process does', async () => {
    const result = await renderPdfPage(await scanPdf(), 1, { maxBytes: 60_000 });
    expect(result.bytes).toBeLessThanOrEqual(60_000);
    expect(result.steps[0]).toBe('rasterized');
    expect(result.steps.length).toBeGreaterThan(1);
  });

  it('refuses what it cannot draw with typed errors', async () => {
    const bytes = await textPdf({ pages: 2 });
    expect((await failsWith(renderPdfPage(bytes, 3), MediaError)).code).toBe('E_INVALID_OPTIONS');
    expect((await failsWith(renderPdfPage(truncated(bytes), 1), MediaError)).code).toBe('E_CORRUPT');
    expect((await failsWith(renderPdfPage(fixture('encrypted-aes256-password.pdf'), 1), MediaError)).code).toBe(
      'E_PDF_ENCRYPTED',
    );
    expect((await failsWith(renderPdfPage(bytes, 1, { preset: 'nope' as 'ollama' }), MediaError)).code).toBe(
      'E_INVALID_OPTIONS',
    );
    expect((await failsWith(renderPdfPage(bytes, 1, { timeoutMs: 0 }), MediaError)).code).toBe('E_INVALID_OPTIONS');
  });

  // PDFium decodes a page's images whole: a 300 dpi letter scan takes ~62 MB of WASM memory at 2000 px.
  // Refused memory, PDFium leaves the image out and draws a white page: that must be an error, not a page.
  it('keeps PDFium within maxMemory: E_TOO_LARGE past it (not a page missing its image), the page within it', async () => {
    const scan = await scanPdf({ width: 2550, height: 3300 });
    const refused = await failsWith(renderPdfPage(scan, 1, { maxMemory: 40 * 1024 * 1024 }), MediaError);
    expect(refused.code).toBe('E_TOO_LARGE');
    expect(refused.details).toMatchObject({ maxMemory: 40 * 1024 * 1024 });
    expect(refused.message).toMatch(/more than 40 MB/);
    const drawn = await renderPdfPage(scan, 1, { maxMemory: 80 * 1024 * 1024 });
    expect(await decoded(drawn.data)).toEqual({ format: 'jpeg', width: 1545, height: 2000 });
    expect((await failsWith(renderPdfPage(scan, 1, { maxMemory: -1 }), MediaError)).code).toBe('E_INVALID_OPTIONS');
  });

  it('stops with E_TIMEOUT when its time budget is spent', async () => {
    expect((await failsWith(renderPdfPage(await scanPdf(), 1, { timeoutMs: 1 }), MediaError)).code).toBe('E_TIMEOUT');
  });
});
