// PDFium's text and pages checked against poppler (pdftotext, pdftoppm), an independent PDF reader.
// Needs Debian's poppler-utils (.ci/run installs it). Targets of issue 16: the same words in the same
// order as pdftotext; a rendered page within PSNR 30 dB of pdftoppm at the same size. Pages of running
// text cannot meet that with any engine: measured, explained and bounded below.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { pdfText, renderPdfPage } from '@glimpse/media';
import { croppedPdf, rotatedPdf, scanPdf, textPdf, vectorPdf } from './fixtures/pdf-documents.js';
import { psnr } from './support/psnr.js';

const folder = mkdtempSync(join(tmpdir(), 'glimpse-pdf-oracle-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function saved(bytes: Uint8Array, name: string): string {
  const path = join(folder, name);
  writeFileSync(path, bytes);
  return path;
}

/** pdftotext's words for each page, in reading order (it ends every page with a form feed). */
function popplerWords(path: string): string[][] {
  const pages = execFileSync('pdftotext', ['-enc', 'UTF-8', path, '-'], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  }).split('\f');
  return pages.slice(0, -1).map((page) => page.split(/\s+/).filter(Boolean));
}

/** pdftoppm's rendering of one page's CropBox (what readers show, and PDFium renders) at exactly width×height, as RGB. */
async function popplerPixels(path: string, page: number, width: number, height: number): Promise<Uint8Array> {
  return rgb(readFileSync(popplerPng(path, page, width, height)));
}

/**
 * pdftoppm with -scale-to-x/-y maps the page onto exactly width×height pixels, as PDFium does (its
 * -scale-to N instead rounds the short side up: 1546 px for a letter page where glimpse makes 1545).
 */
function popplerPng(path: string, page: number, width: number, height: number): string {
  const out = join(folder, `poppler-${page}`);
  // pdftoppm takes -scale-to-x/-y before the page's /Rotate: swap them for a page turned a quarter.
  const turned = / rot:\s+(90|270)\b/.test(
    execFileSync('pdfinfo', ['-f', String(page), '-l', String(page), path], { encoding: 'utf8' }),
  );
  const [x, y] = turned ? [height, width] : [width, height];
  execFileSync('pdftoppm', [
    '-png',
    '-singlefile',
    '-cropbox',
    '-f',
    String(page),
    '-l',
    String(page),
    '-scale-to-x',
    String(x),
    '-scale-to-y',
    String(y),
    path,
    out,
  ]);
  return `${out}.png`;
}

/** The image's RGB pixels; `blur` is a Gaussian's sigma in pixels. */
async function rgb(image: Uint8Array, blur = 0): Promise<Uint8Array> {
  const pixels = sharp(image).flatten({ background: '#ffffff' }).removeAlpha();
  return new Uint8Array(await (blur > 0 ? pixels.blur(blur) : pixels).raw().toBuffer());
}

/** `image` moved `down` pixels, white coming in at the top: a misplaced render. */
async function shiftedDown(image: Uint8Array, down: number): Promise<Uint8Array> {
  const { width = 0, height = 0 } = await sharp(image).metadata();
  const taller = await sharp(image)
    .flatten({ background: '#ffffff' })
    .extend({ top: down, background: '#ffffff' })
    .png()
    .toBuffer();
  return sharp(taller).extract({ left: 0, top: 0, width, height }).png().toBuffer();
}

/** `image` with its red and blue channels swapped: a renderer that mistakes BGRA for RGBA. */
async function swappedRedBlue(image: Uint8Array): Promise<Uint8Array> {
  return sharp(image)
    .flatten({ background: '#ffffff' })
    .removeAlpha()
    .recomb([
      [0, 0, 1],
      [0, 1, 0],
      [1, 0, 0],
    ])
    .png()
    .toBuffer();
}

const documents = [
  { name: 'vector drawings', make: vectorPdf, pages: 1 },
  { name: 'a cropped page (MediaBox off the origin, smaller CropBox)', make: croppedPdf, pages: 1 },
  { name: 'a JPEG scan', make: () => scanPdf(), pages: 1 },
  { name: 'rotated pages', make: rotatedPdf, pages: 4 },
];

// Each test renders or reads whole documents with both engines: minutes on two loaded cores.
describe('PDFium against poppler', { timeout: 300_000 }, () => {
  it('extracts the same words in the same order as pdftotext (standard and embedded fonts, 300 pages, rotated pages)', async () => {
    for (const [name, bytes] of [
      ['helvetica', await textPdf({ pages: 3 })],
      ['embedded', await textPdf({ pages: 2, embedFont: true })],
      ['long', await textPdf({ pages: 300, lines: 3 })],
      ['rotated', await rotatedPdf()],
    ] as const) {
      const text = await pdfText(bytes);
      const ours = text.pages.map((page) => page.text.split(/\s+/).filter(Boolean));
      expect(ours, name).toEqual(popplerWords(saved(bytes, `${name}.pdf`)));
    }
  });

  // Measured (1545×2000): vector drawings 36.3 dB, the cropped page (1600×2000, a shape half transparent)
  // 51.8, the scan 45.2 (as JPEG), rotated pages 32.2–34.5. No sub-pixel shift of poppler's image raises
  // the vector page's score: the geometry agrees. A renderer that draws everything 1 px lower fails here
  // (vector drawings 25.3, rotated 29.2).
  for (const document of documents) {
    it(`renders ${document.name} within 30 dB PSNR of pdftoppm`, async () => {
      const bytes = await document.make();
      const path = saved(bytes, 'render.pdf');
      for (let page = 1; page <= document.pages; page++) {
        // What a model gets: the scan comes as JPEG, so its score includes JPEG's loss.
        const result = await renderPdfPage(bytes, page);
        const ours = await rgb(result.data);
        const theirs = await popplerPixels(path, page, result.width, result.height);
        expect(psnr(ours, theirs), `page ${page}`).toBeGreaterThanOrEqual(30);
      }
    });
  }

  // The bound catches a rendering bug: our own vector page (36.3 dB) scores 16.4 with red and blue swapped
  // (BGRA taken for RGBA) and 25.3 moved down by one pixel.
  it('fails the 30 dB bound for a render whose channels are swapped or that is moved by a pixel', async () => {
    const bytes = await vectorPdf();
    const result = await renderPdfPage(bytes, 1);
    const theirs = await popplerPixels(saved(bytes, 'controls.pdf'), 1, result.width, result.height);
    expect(psnr(await rgb(result.data), theirs)).toBeGreaterThanOrEqual(30);
    expect(psnr(await rgb(await swappedRedBlue(result.data)), theirs)).toBeLessThan(30);
    expect(psnr(await rgb(await shiftedDown(result.data, 1)), theirs)).toBeLessThan(30);
  });

  // Running text: no two independent engines come within 30 dB of each other at full size, because glyphs
  // land a fraction of a pixel apart. Measured on this page (DejaVu embedded, 1545×2000) against pdftoppm,
  // by comparing each line's ink extent and centroid:
  // - PDFium reads a font's /W widths as integers; pdf-lib writes them exact (600.09765625), so PDFium's lines
  //   end up to 1.4 px short. This fixture writes whole widths, as most producers do (with pdf-lib's exact
  //   widths PDFium scores 17.0 dB here, through the blur 28.0; pdftocairo 19.5 and 31.2).
  // - pdftoppm puts some lines one pixel higher than PDFium and pdftocairo, which agree within 0.1 px.
  // - PDFium hints the TrueType glyphs and puts each on a whole pixel; Splash does neither (quarter pixels).
  // PDFium scores 20.5 dB (pdftocairo against pdftoppm 19.5, PDFium against pdftocairo 24.7). So text is
  // compared through a Gaussian blur of 2 px, which forgives sub-pixel placement: PDFium 32.1 dB on both pages. Our own
  // render moved 1 px down scores 25.8 there, 1 px right 26.5, scaled to 99% 14.6, red and blue swapped 24.7,
  // without anti-aliasing 25.6, blank 15.4. A blurry render (drawn at half size, scaled up) passes the blur
  // (30.0), so the page is also held to 19.8 dB as it is: PDFium 20.5, the blurry render 19.2, without
  // anti-aliasing 17.7, moved 1 px 15.4, blank 12.2. (poppler 22.12, Debian 12.)
  it('renders running text (embedded font) where pdftoppm does: ≥ 30 dB through a 2-pixel blur, ≥ 19.8 dB as is', async () => {
    const bytes = await textPdf({ pages: 2, embedFont: true, wholeWidths: true });
    const path = saved(bytes, 'text.pdf');
    for (const page of [1, 2]) {
      const result = await renderPdfPage(bytes, page);
      const theirs = readFileSync(popplerPng(path, page, result.width, result.height));
      expect(
        psnr(await rgb(result.data, 2), await rgb(theirs, 2)),
        `page ${page} through the blur`,
      ).toBeGreaterThanOrEqual(30);
      expect(psnr(await rgb(result.data), await rgb(theirs)), `page ${page}`).toBeGreaterThanOrEqual(19.8);
      expect(
        psnr(await rgb(await shiftedDown(result.data, 1), 2), await rgb(theirs, 2)),
        `page ${page} moved 1 px`,
      ).toBeLessThan(30);
    }
  });
});
