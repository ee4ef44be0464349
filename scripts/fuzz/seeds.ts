// The fuzzer's starting files: small, valid and deterministic, several variants per format so mutations
// start from every code path (palette, 16-bit, interlaced, progressive, CMYK, RLE, animation, filters…).
import { PDFDocument, StandardFonts } from 'pdf-lib';
import sharp, { type TiffOptions } from 'sharp';
import { icoBmpEntry, icoFile } from '../../test/fixtures/ico-writer.js';
import { manyScanJpeg } from '../../test/fixtures/jpeg-scans.js';
import { separatePlanesTiff } from '../../test/fixtures/tiff-planes.js';
import { avifSeeds, heicSeeds } from './isobmff-seeds.js';
import {
  bmp,
  gif,
  naturalPixels,
  encodeBmp,
  pdf,
  photoJpeg,
  screenshotPng,
  svg,
  webp,
} from '../../test/fixtures/make.js';

export const FUZZ_FORMATS = ['jpeg', 'png', 'webp', 'gif', 'bmp', 'svg', 'pdf', 'tiff', 'ico', 'avif', 'heic'] as const;
export type FuzzFormat = (typeof FUZZ_FORMATS)[number];

export const EXTENSIONS: Record<FuzzFormat, string> = {
  jpeg: 'jpg',
  png: 'png',
  webp: 'webp',
  gif: 'gif',
  bmp: 'bmp',
  svg: 'svg',
  pdf: 'pdf',
  tiff: 'tiff',
  ico: 'ico',
  avif: 'avif',
  heic: 'heic',
};

const utf8 = (text: string) => new TextEncoder().encode(text);

/** SVGs that reach resvg's expensive features: filters, patterns, <use>, masks, text, embedded images. */
const SVG_SOURCES = [
  `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="120" height="80" viewBox="0 0 120 80">
  <defs>
    <linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#1a73e8"/><stop offset="1" stop-color="#fbbc04" stop-opacity="0.5"/></linearGradient>
    <filter id="f" x="-10%" y="-10%" width="120%" height="120%"><feGaussianBlur stdDeviation="2"/><feMorphology operator="dilate" radius="1"/><feOffset dx="2" dy="2"/></filter>
    <clipPath id="c"><circle cx="60" cy="40" r="30"/></clipPath>
    <pattern id="p" width="8" height="8" patternUnits="userSpaceOnUse"><rect width="4" height="4" fill="#34a853"/></pattern>
    <mask id="m"><rect width="120" height="80" fill="white" opacity="0.6"/></mask>
    <symbol id="s"><path d="M0 0 L10 0 L5 9 Z" fill="red"/></symbol>
  </defs>
  <rect width="120" height="80" fill="url(#g)"/>
  <g clip-path="url(#c)" filter="url(#f)" mask="url(#m)"><rect x="10" y="10" width="100" height="60" fill="url(#p)"/></g>
  <use xlink:href="#s" x="5" y="5" transform="rotate(15) scale(2)"/>
  <text x="8" y="74" font-size="10" font-family="sans-serif">fuzz <tspan fill="blue">text</tspan></text>
</svg>`,
  `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64">
  <filter id="t"><feTurbulence baseFrequency="0.05" numOctaves="2"/><feColorMatrix type="saturate" values="0.3"/><feComposite in2="SourceGraphic" operator="in"/></filter>
  <circle cx="32" cy="32" r="28" fill="#ea4335" fill-opacity="0.5" stroke="#202124" stroke-dasharray="4 2" filter="url(#t)"/>
  <image width="16" height="16" href="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAAFklEQVR4nGNgYPj/n4GBgYGBgYGBAQAJ/wH+8QbRgwAAAABJRU5ErkJggg=="/>
</svg>`,
];

/**
 * Issue 11's reproducers, small: one path of long random segments stroked (hairline, dashed, wide with round
 * joins), filled even-odd, as curves and as a polyline. Mutating a coordinate, the size or the count of points
 * moves it across the edge bound in svg-paint.ts (100,000 such segments took 15.9 s before it).
 */
function longOutlines(): string {
  let state = 11;
  const random = () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return Math.round((state / 2 ** 31) * 400);
  };
  const path = (count: number, letter: string, per: number) =>
    `M${random()} ${random()}${Array.from({ length: count }, () => ` ${letter}${Array.from({ length: per }, random).join(' ')}`).join('')}`;
  return `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="400" height="400">
  <defs><path id="p" d="${path(200, 'L', 2)}"/></defs>
  <path fill="none" stroke="black" d="${path(400, 'L', 2)}"/>
  <path fill="none" stroke="navy" stroke-dasharray="7 2" d="${path(200, 'L', 2)}"/>
  <path fill="none" stroke="teal" stroke-width="12" stroke-linejoin="round" stroke-linecap="round" d="${path(100, 'L', 2)}"/>
  <path fill="#c33" fill-opacity="0.5" fill-rule="evenodd" d="${path(200, 'C', 6)}"/>
  <path fill="none" stroke="olive" d="${path(200, 'Q', 4)}"/>
  <polyline fill="none" stroke="gray" points="${Array.from({ length: 400 }, random).join(' ')}"/>
  <use xlink:href="#p" stroke="purple" fill="none"/><use xlink:href="#p" stroke="orange" fill="none" transform="rotate(90 200 200)"/>
</svg>`;
}

async function pdfWithObjectStreams(): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  document.setCreationDate(new Date(Date.UTC(2024, 0, 1)));
  document.setModificationDate(new Date(Date.UTC(2024, 0, 1)));
  const font = await document.embedFont(StandardFonts.Courier);
  document.addPage([300, 200]).drawText('object streams', { x: 20, y: 150, size: 14, font });
  document.addPage([200, 300]);
  return document.save({ useObjectStreams: true });
}

/** pdf-lib stamps the time of writing: fixed digits keep seeds identical (same length, so offsets hold). */
function fixDates(bytes: Uint8Array): Uint8Array {
  const text = new TextDecoder('latin1')
    .decode(bytes)
    .replace(/D:\d{14}/g, (date) => date.replace(/\d/g, '0').replace('D:0000', 'D:2024'));
  return Uint8Array.from(text, (char) => char.charCodeAt(0));
}

/** Every seed of one format, built the same way on every run. */
export async function seedsFor(format: FuzzFormat): Promise<Uint8Array[]> {
  switch (format) {
    case 'jpeg':
      return Promise.all([
        photoJpeg({ width: 48, height: 32 }),
        photoJpeg({ width: 40, height: 24, progressive: true }),
        photoJpeg({ width: 33, height: 17, gray: true }),
        photoJpeg({ width: 32, height: 32, cmyk: true }),
        photoJpeg({ width: 40, height: 30, orientation: 6 }),
        // The scan-count DoS: 2,112 scans (refused, E_TOO_COMPLEX), and 100, the most glimpse reads.
        manyScanJpeg({ width: 24, height: 16, components: 3, scans: 2112 }),
        manyScanJpeg({ width: 40, height: 24, components: 3, subsampled: true, scans: 100 }),
      ]);
    case 'png':
      return Promise.all([
        screenshotPng({ width: 40, height: 24 }),
        screenshotPng({ width: 33, height: 20, alpha: true }),
        screenshotPng({ width: 40, height: 24, palette: true }),
        screenshotPng({ width: 30, height: 20, palette: true, alpha: true }),
        screenshotPng({ width: 24, height: 16, bitDepth16: true }),
        screenshotPng({ width: 37, height: 21, interlaced: true, alpha: true }),
        screenshotPng({ width: 20, height: 20, grayAlpha: true }),
        screenshotPng({ width: 32, height: 16, orientation: 8 }),
      ]);
    case 'webp':
      return Promise.all([
        webp({ width: 48, height: 32 }),
        webp({ width: 40, height: 24, lossless: true, alpha: true }),
        webp({ width: 32, height: 32, alpha: true }),
        webp({ width: 32, height: 24, animated: true, frames: 2, alpha: true }),
        webp({ width: 30, height: 20, orientation: 6 }),
      ]);
    case 'gif':
      return Promise.all([
        gif({ width: 40, height: 24 }),
        gif({ width: 32, height: 20, animated: true, transparent: true, frames: 3 }),
      ]);
    case 'bmp': {
      const pixels = naturalPixels(13, 9, { channels: 4 });
      return [
        bmp({ width: 17, height: 11 }),
        bmp({ width: 15, height: 9, bitsPerPixel: 8, rle: true }),
        bmp({ width: 15, height: 9, bitsPerPixel: 4, rle: true }),
        bmp({ width: 12, height: 7, bitsPerPixel: 1 }),
        bmp({ width: 12, height: 7, bitsPerPixel: 16, bitfields: true }),
        encodeBmp(pixels, { bitsPerPixel: 32, bitfields: true }),
        bmp({ width: 10, height: 10, bitsPerPixel: 8, coreHeader: true, topDown: false }),
        bmp({ width: 10, height: 6, topDown: true }),
      ];
    }
    case 'svg':
      return [svg(), ...SVG_SOURCES.map(utf8), utf8(longOutlines())];
    case 'pdf':
      return (
        await Promise.all([
          pdf({ pages: 1, pageSize: [300, 200] }),
          pdf({ pages: 3, rotate: 90 }),
          pdf({ encrypted: true }),
          pdfWithObjectStreams(),
        ])
      ).map(fixDates);
    case 'tiff': {
      // Strips and tiles, each compression libtiff is built with that sharp writes, 1-bit and alpha.
      const { data } = naturalPixels(24, 18, { channels: 4 });
      const image = () => sharp(data, { raw: { width: 24, height: 18, channels: 4 } });
      const options: TiffOptions[] = [
        { compression: 'lzw', predictor: 'horizontal' },
        { compression: 'deflate', tile: true, tileWidth: 16, tileHeight: 16 },
        { compression: 'packbits' },
        { compression: 'jpeg', quality: 70 },
        { compression: 'ccittfax4', bitdepth: 1 },
        { compression: 'none', bitdepth: 4 },
      ];
      const source = (option: TiffOptions) =>
        option.bitdepth
          ? image().removeAlpha().toColourspace('b-w')
          : option.compression === 'jpeg'
            ? image().removeAlpha()
            : image();
      // CMYK for the decoder's own converter (sharp writes none): separate planes, 16-bit with alpha in 16×16
      // Deflate tiles, and 8-bit in one strip a plane; the pixels' RGBA bytes stand in for CMYK(A) samples.
      const wide = new Uint8Array(24 * 18 * 5 * 2);
      for (let i = 0; i < 24 * 18 * 5; i++) wide[i * 2] = wide[i * 2 + 1] = data[Math.floor((i * 4) / 5)] ?? 0;
      const cmyk = [
        separatePlanesTiff({
          width: 24,
          height: 18,
          bits: 16,
          samples: 5,
          data: wide,
          extra: 2,
          tile: 16,
          deflate: true,
        }),
        separatePlanesTiff({ width: 24, height: 18, bits: 8, samples: 4, data }),
      ];
      const written = await Promise.all(
        options.map(async (option) => new Uint8Array(await source(option).tiff(option).toBuffer())),
      );
      return [...written, ...cmyk];
    }
    case 'ico': {
      const opaque = naturalPixels(16, 16);
      const png = await screenshotPng({ width: 32, height: 32 });
      return [
        icoFile([
          { data: png, width: 32, height: 32, bits: 32 },
          { data: icoBmpEntry(naturalPixels(16, 16, { channels: 4 }), 32), width: 16, height: 16, bits: 32 },
        ]),
        icoFile([{ data: icoBmpEntry(opaque, 4, (x, y) => x + y < 8), width: 16, height: 16, bits: 4 }]),
        icoFile([{ data: icoBmpEntry(opaque, 8), width: 16, height: 16, bits: 8 }], { cursor: true }),
      ];
    }
    case 'avif':
      return avifSeeds();
    case 'heic':
      return heicSeeds();
  }
}
