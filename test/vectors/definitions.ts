// The shared test vectors: how each input is made (once, then committed under inputs/), the options it
// runs with, and what must hold for its output in any runtime. The exact bytes expected are in
// manifest.json, written from Node by `UPDATE_VECTORS=1 npx vitest run test/vectors.test.ts`.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import sharp from 'sharp';
import type { ProcessOptions } from '@glimpse/media';
import type { VectorObservation, VectorOperation } from '../runtimes/vector-manifest.js';
import { codedImageOf, gridHeif, heifEnc, writeHeif } from '../fixtures/heif-writer.js';
import { icoBmpEntry, icoFile } from '../fixtures/ico-writer.js';
import { rotatedPdf, scanPdf, textPdf } from '../fixtures/pdf-documents.js';

export interface VectorDefinition {
  name: string;
  input: string;
  make: () => Promise<Uint8Array>;
  options: ProcessOptions;
  /** A PDF page or the PDF's text instead of `process`. */
  operation?: VectorOperation;
  /** Facts the output must show; checked against Node's output before the manifest is written. */
  holds: Partial<{
    mediaType: string;
    width: number;
    height: number;
    steps: string[];
    error: string;
    pageCount: number;
  }>;
  /** The output must be the input itself. */
  passthrough?: true;
}

const bytesOf = (buffer: Buffer) => new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);

/** A synthetic app screenshot: flat panels, a sidebar and lines of text, as UIs look. */
async function screenshotPng(): Promise<Uint8Array> {
  const rows = Array.from(
    { length: 24 },
    (_, i) =>
      `<text x="360" y="${150 + i * 52}" font-family="sans-serif" font-size="28" fill="#222">Line ${i + 1}: the quick brown fox jumps over the lazy dog, 0123456789</text>`,
  );
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="2560" height="1600">
    <rect width="2560" height="1600" fill="#f4f5f7"/><rect width="300" height="1600" fill="#2b2f3a"/>
    <rect x="0" y="0" width="2560" height="80" fill="#3b6fd8"/><rect x="340" y="110" width="2180" height="1400" rx="12" fill="#fff" stroke="#d0d4dc"/>
    ${rows.join('')}</svg>`;
  return bytesOf(await sharp(Buffer.from(svg)).png({ palette: true, colours: 16 }).toBuffer());
}

/** Smooth colour fields: photo-like for the codecs, small on disk. */
function gradient(width: number, height: number, channels: 3 | 4): Buffer {
  const pixels = Buffer.alloc(width * height * channels);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * channels;
      pixels[at] = (x * 255) / width;
      pixels[at + 1] = (y * 255) / height;
      pixels[at + 2] = 128 + 100 * Math.sin((x + y) / 60);
      if (channels === 4) pixels[at + 3] = Math.min(255, Math.hypot(x - width / 2, y - height / 2) * 2);
    }
  }
  return pixels;
}

const raw = (width: number, height: number, channels: 3 | 4) =>
  sharp(gradient(width, height, channels), { raw: { width, height, channels } });

/** 24-bit bottom-up BMP, written by hand: sharp cannot write BMP. */
function bmp(width: number, height: number): Uint8Array {
  const rowBytes = Math.ceil((width * 3) / 4) * 4;
  const file = Buffer.alloc(54 + rowBytes * height);
  file.write('BM', 0, 'latin1');
  file.writeUInt32LE(file.length, 2);
  file.writeUInt32LE(54, 10);
  file.writeUInt32LE(40, 14);
  file.writeInt32LE(width, 18);
  file.writeInt32LE(height, 22);
  file.writeUInt16LE(1, 26);
  file.writeUInt16LE(24, 28);
  file.writeUInt32LE(rowBytes * height, 34);
  const pixels = gradient(width, height, 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const from = (y * width + x) * 3;
      const to = 54 + (height - 1 - y) * rowBytes + x * 3;
      file.set([pixels[from + 2] ?? 0, pixels[from + 1] ?? 0, pixels[from] ?? 0], to);
    }
  }
  return bytesOf(file);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** Pictures written by ImageMagick (/usr/bin/convert) as one TIFF or ICO file, with `args`. */
async function magick(
  extension: 'tiff' | 'ico',
  args: string[],
  ...pictures: ReturnType<typeof raw>[]
): Promise<Uint8Array> {
  const folder = mkdtempSync(join(tmpdir(), 'glimpse-vector-'));
  try {
    const inputs = await Promise.all(
      pictures.map(async (picture, index) => {
        const path = join(folder, `${index}.png`);
        await picture.png().toFile(path);
        return path;
      }),
    );
    const out = join(folder, `out.${extension}`);
    execFileSync('/usr/bin/convert', [...inputs, ...args, out]);
    return new Uint8Array(readFileSync(out));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** A picture written by Debian's avifenc (libavif-bin) as AVIF, with `args`. */
async function avifenc(args: string[], picture: ReturnType<typeof raw>): Promise<Uint8Array> {
  const folder = mkdtempSync(join(tmpdir(), 'glimpse-vector-'));
  try {
    await picture.png().toFile(join(folder, 'in.png'));
    execFileSync('avifenc', ['-s', '9', '-j', '1', ...args, join(folder, 'in.png'), join(folder, 'out.avif')], {
      stdio: 'pipe',
    });
    return new Uint8Array(readFileSync(join(folder, 'out.avif')));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Pixels in the shape heif-enc's helpers take. */
const pixels = (width: number, height: number, channels: 3 | 4) => ({
  data: new Uint8Array(gradient(width, height, channels)),
  width,
  height,
  channels,
});

/** A single coded HEVC image from heif-enc, for files the test HEIF writer assembles around it. */
const codedHeic = async () => codedImageOf(await heifEnc(pixels(96, 64, 3), { quality: 60 }));

/** A PNG whose header declares 40000×40000 pixels: the guard must refuse it before decoding anything. */
function pngBombHeader(): Uint8Array {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(40_000, 0);
  header.writeUInt32BE(40_000, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const signature = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);
  return bytesOf(
    Buffer.concat([
      signature,
      pngChunk('IHDR', header),
      pngChunk('IDAT', Buffer.from([120, 156, 3, 0, 0, 0, 0, 1])),
      pngChunk('IEND', Buffer.alloc(0)),
    ]),
  );
}

async function twoPagePdf(): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  document.setCreationDate(new Date(0));
  document.setModificationDate(new Date(0));
  const font = await document.embedFont(StandardFonts.Helvetica);
  for (const title of ['Quarterly report', 'Appendix']) {
    const page = document.addPage([612, 792]);
    page.drawText(title, { x: 72, y: 700, size: 28, font, color: rgb(0.1, 0.2, 0.5) });
    page.drawRectangle({ x: 72, y: 400, width: 300, height: 200, color: rgb(0.8, 0.85, 0.95) });
  }
  return document.save({ useObjectStreams: false });
}

const DIAGRAM_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 240" width="400" height="240">
  <rect x="10" y="10" width="380" height="220" rx="16" fill="#eef3ff" stroke="#3b6fd8" stroke-width="4"/>
  <circle cx="90" cy="120" r="50" fill="#3b6fd8"/><path d="M160 170 L220 70 L280 170 Z" fill="#f2a03d"/>
  <text x="200" y="215" font-family="sans-serif" font-size="22" text-anchor="middle" fill="#222">Glimpse diagram</text>
</svg>
`;

export const VECTOR_DEFINITIONS: VectorDefinition[] = [
  {
    name: 'png-screenshot-downscaled',
    input: 'screenshot.png',
    make: screenshotPng,
    options: { provider: 'anthropic' },
    holds: { mediaType: 'image/png', width: 1389, height: 868, steps: ['resized'] }, // 1,568 patches of 28 px
  },
  {
    name: 'jpeg-exif-rotated',
    input: 'photo-orientation-6.jpg',
    make: async () => bytesOf(await raw(640, 480, 3).jpeg({ quality: 85 }).withMetadata({ orientation: 6 }).toBuffer()),
    options: {},
    holds: { mediaType: 'image/jpeg', width: 480, height: 640, steps: ['oriented'] },
  },
  {
    name: 'jpeg-large-downscaled',
    input: 'photo-3000x2000.jpg',
    make: async () => bytesOf(await raw(3000, 2000, 3).blur(2).jpeg({ quality: 70 }).toBuffer()),
    options: {},
    holds: { mediaType: 'image/jpeg', width: 2000, height: 1333, steps: ['resized'] },
  },
  {
    name: 'jpeg-fit-bytes',
    input: 'photo-1200x900.jpg',
    make: async () => bytesOf(await raw(1200, 900, 3).jpeg({ quality: 95 }).toBuffer()),
    options: { maxBytes: 30_000 },
    holds: { mediaType: 'image/jpeg' },
  },
  {
    name: 'jpeg-passthrough',
    input: 'photo-400x300.jpg',
    make: async () => bytesOf(await raw(400, 300, 3).jpeg({ quality: 80 }).toBuffer()),
    options: {},
    holds: { mediaType: 'image/jpeg', width: 400, height: 300, steps: [] },
    passthrough: true,
  },
  {
    name: 'webp-alpha-passthrough',
    input: 'alpha.webp',
    make: async () => bytesOf(await raw(320, 240, 4).webp({ quality: 80 }).toBuffer()),
    options: { provider: 'openai' },
    holds: { mediaType: 'image/webp', width: 320, height: 240, steps: [] },
    passthrough: true,
  },
  {
    name: 'webp-alpha-to-png',
    input: 'alpha.webp',
    make: async () => bytesOf(await raw(320, 240, 4).webp({ quality: 80 }).toBuffer()),
    options: { provider: 'ollama' },
    holds: { mediaType: 'image/png', width: 320, height: 240, steps: ['converted'] },
  },
  {
    name: 'gif-animated-first-frame',
    input: 'animated.gif',
    make: async () => {
      const frames = [0, 1, 2].map((frame) =>
        gradient(160, 120, 4).map((value, i) => (i % 4 === 3 ? 255 : (value + frame * 70) % 256)),
      );
      return bytesOf(
        await sharp(Buffer.concat(frames), { raw: { width: 160, height: 360, channels: 4, pageHeight: 120 } })
          .gif({ delay: [100, 100, 100], loop: 0 })
          .toBuffer(),
      );
    },
    options: { provider: 'gemini' },
    holds: { mediaType: 'image/png', width: 160, height: 120 },
  },
  {
    name: 'bmp-to-png',
    input: 'picture.bmp',
    make: async () => bmp(200, 150),
    options: {},
    holds: { mediaType: 'image/png', width: 200, height: 150, steps: ['converted'] },
  },
  {
    name: 'svg-rasterized',
    input: 'diagram.svg',
    make: async () => new TextEncoder().encode(DIAGRAM_SVG),
    options: {},
    holds: { mediaType: 'image/png', steps: ['rasterized'] },
  },
  {
    name: 'pdf-passthrough',
    input: 'report.pdf',
    make: twoPagePdf,
    options: { provider: 'anthropic' },
    holds: { mediaType: 'application/pdf', steps: [] },
    passthrough: true,
  },
  {
    name: 'pdf-refused-by-ollama',
    input: 'report.pdf',
    make: twoPagePdf,
    options: { provider: 'ollama' },
    holds: { error: 'E_UNSUPPORTED' },
  },
  {
    name: 'pdf-page-text-rendered',
    input: 'chapters.pdf',
    make: () => textPdf({ pages: 2, lines: 12 }),
    options: { provider: 'anthropic' },
    operation: { renderPdfPage: 2 },
    holds: { mediaType: 'image/png', width: 952, height: 1232, steps: ['rasterized'] }, // 1,568 patches of 28 px
  },
  {
    name: 'pdf-page-scan-rendered',
    input: 'scan.pdf',
    make: () => scanPdf({ width: 340, height: 440 }),
    options: { maxEdge: 800 },
    operation: { renderPdfPage: 1 },
    holds: { mediaType: 'image/jpeg', width: 618, height: 800, steps: ['rasterized'] },
  },
  {
    name: 'pdf-page-rotated-rendered',
    input: 'rotated.pdf',
    make: rotatedPdf,
    options: { maxEdge: 600 },
    operation: { renderPdfPage: 2 },
    holds: { mediaType: 'image/png', width: 600, height: 464, steps: ['rasterized'] },
  },
  {
    name: 'pdf-text',
    input: 'chapters.pdf',
    make: () => textPdf({ pages: 2, lines: 12 }),
    options: {},
    operation: { pdfText: { pages: [2, 1] } },
    holds: { mediaType: 'text/plain', pageCount: 2 },
  },
  {
    name: 'pdf-password-refused',
    input: 'encrypted-password.pdf',
    make: async () =>
      new Uint8Array(await readFile(new URL('../fixtures/encrypted-aes256-password.pdf', import.meta.url))),
    options: {},
    operation: { renderPdfPage: 1 },
    holds: { error: 'E_PDF_ENCRYPTED' },
  },
  {
    name: 'pdf-truncated-text',
    input: 'truncated.pdf',
    make: async () => (await textPdf({ pages: 2, lines: 12 })).subarray(0, 1500),
    options: {},
    operation: { pdfText: {} },
    holds: { error: 'E_CORRUPT' },
  },
  {
    name: 'tiff-jpeg-compressed-to-jpeg',
    input: 'scan.tiff',
    make: async () => bytesOf(await raw(32, 32, 3).tiff().toBuffer()), // sharp writes JPEG-in-TIFF by default
    options: {},
    holds: { mediaType: 'image/jpeg', width: 32, height: 32, steps: ['converted'] },
  },
  {
    name: 'tiff-tiled-16bit-multipage-first-page',
    input: 'scan-tiled-16bit-3-pages.tiff',
    make: async () =>
      magick(
        'tiff',
        ['-depth', '16', '-compress', 'lzw', '-define', 'tiff:tile-geometry=64x64'],
        raw(200, 150, 3),
        raw(100, 80, 3),
        raw(50, 40, 3),
      ),
    options: { maxEdge: 120 },
    holds: { mediaType: 'image/png', width: 120, height: 90, steps: ['first-page', 'resized', 'converted'] },
  },
  {
    name: 'tiff-cmyk-jpeg-to-jpeg',
    input: 'cmyk-jpeg.tiff',
    make: async () => magick('tiff', ['-colorspace', 'cmyk', '-compress', 'jpeg', '-quality', '85'], raw(160, 120, 3)),
    options: {},
    holds: { mediaType: 'image/jpeg', width: 160, height: 120, steps: ['converted'] },
  },
  {
    name: 'ico-largest-entry-to-png',
    input: 'favicon.ico',
    make: async () => magick('ico', ['-define', 'icon:auto-resize=64,32,16'], raw(64, 64, 4)),
    options: {},
    holds: { mediaType: 'image/png', width: 64, height: 64, steps: ['converted'] },
  },
  {
    // A favicon as browsers fetch it: the largest entry a PNG, a small one a BMP.
    name: 'ico-png-entry-largest-to-png',
    input: 'favicon-png-bmp.ico',
    make: async () =>
      icoFile([
        { data: bytesOf(await raw(48, 48, 4).png().toBuffer()), width: 48, height: 48, bits: 32 },
        { data: icoBmpEntry(pixels(16, 16, 4), 32), width: 16, height: 16, bits: 32 },
      ]),
    options: {},
    holds: { mediaType: 'image/png', width: 48, height: 48 },
  },
  {
    name: 'ico-truncated-refused',
    input: 'truncated.ico',
    make: async () => {
      const whole = await magick('ico', ['-define', 'icon:auto-resize=64,32,16'], raw(64, 64, 4));
      return whole.subarray(0, 6000); // the largest entry's pixels cut short
    },
    options: {},
    holds: { error: 'E_CORRUPT' },
  },
  {
    name: 'tiff-truncated-refused',
    input: 'truncated.tiff',
    make: async () => {
      const whole = await magick('tiff', ['-compress', 'lzw'], raw(160, 120, 3));
      return whole.subarray(0, Math.round(whole.length / 2));
    },
    options: {},
    holds: { error: 'E_CORRUPT' },
  },
  {
    name: 'avif-10bit-alpha-rotated-to-png',
    input: 'alpha-10bit-irot.avif',
    make: async () => avifenc(['-d', '10', '--irot', '1'], raw(96, 64, 4)),
    options: {},
    holds: { mediaType: 'image/png', width: 64, height: 96, steps: ['oriented', 'converted'] },
  },
  {
    name: 'avif-grid-downscaled-to-jpeg',
    input: 'grid-2x2.avif',
    make: async () => avifenc(['-g', '2x2'], raw(256, 192, 3)),
    options: { maxEdge: 100 },
    holds: { mediaType: 'image/jpeg', width: 100, height: 75, steps: ['resized', 'converted'] },
  },
  {
    name: 'avif-truncated-refused',
    input: 'truncated.avif',
    make: async () => {
      const whole = await avifenc([], raw(96, 64, 3));
      return whole.subarray(0, whole.length - 100); // the AV1 data cut short, the item graph intact
    },
    options: {},
    holds: { error: 'E_CORRUPT' },
  },
  {
    // As phones store photos: tiles of one size, the last row and column overhanging; irot turns it upright.
    name: 'heic-grid-rotated-to-jpeg',
    input: 'grid-3x2-irot.heic',
    make: async () => gridHeif(pixels(160, 100, 3), 64, { quality: 60, rotate: 3 }),
    options: {},
    holds: { mediaType: 'image/jpeg', width: 100, height: 160, steps: ['oriented', 'converted'] },
  },
  {
    name: 'heic-irot-imir-clap-to-jpeg',
    input: 'irot-imir-clap.heic',
    make: async () => writeHeif({ tiles: [await codedHeic()], rotate: 1, mirror: 0, clap: { width: 80, height: 48 } }),
    options: {},
    holds: { mediaType: 'image/jpeg', width: 48, height: 80, steps: ['oriented', 'converted'] },
  },
  {
    name: 'heic-10bit-alpha-to-png',
    input: 'alpha-10bit.heic',
    make: async () => heifEnc(pixels(96, 64, 4), { quality: 60, sixteenBit: true }),
    options: {},
    holds: { mediaType: 'image/png', width: 96, height: 64, steps: ['converted'] },
  },
  {
    name: 'heic-truncated-refused',
    input: 'truncated.heic',
    make: async () => {
      const whole = await heifEnc(pixels(96, 64, 3), { quality: 60 });
      return whole.subarray(0, whole.length - 100); // the HEVC data cut short, the item graph intact
    },
    options: {},
    holds: { error: 'E_CORRUPT' },
  },
  {
    name: 'heic-bomb-refused',
    input: 'bomb-ispe.heic',
    make: async () => {
      // A small coded image whose ispe property declares 40000×40000: the guard refuses it from the header.
      const coded = await codedHeic();
      for (const property of coded.properties) {
        if (String.fromCharCode(...property.subarray(4, 8)) !== 'ispe') continue;
        new DataView(property.buffer, property.byteOffset).setUint32(12, 40_000);
        new DataView(property.buffer, property.byteOffset).setUint32(16, 40_000);
      }
      return writeHeif({ tiles: [coded] });
    },
    options: {},
    holds: { error: 'E_TOO_MANY_PIXELS' },
  },
  {
    name: 'png-bomb-refused',
    input: 'bomb-header.png',
    make: async () => pngBombHeader(),
    options: {},
    holds: { error: 'E_TOO_MANY_PIXELS' },
  },
  {
    name: 'jpeg-truncated-recovered',
    input: 'photo-truncated.jpg',
    make: async () => {
      const whole = bytesOf(await raw(1200, 900, 3).jpeg({ quality: 90 }).toBuffer());
      return whole.subarray(0, Math.round(whole.length * 0.6));
    },
    options: { maxEdge: 600 },
    holds: { mediaType: 'image/jpeg', width: 600, height: 450, steps: ['recovered', 'resized'] },
  },
  {
    name: 'png-truncated',
    input: 'truncated.png',
    make: async () => (await screenshotPng()).subarray(0, 600),
    options: { maxEdge: 800 },
    holds: { error: 'E_CORRUPT' },
  },
];

/** Keeps only the facts a definition names, to compare with its `holds`. */
export function factsNamedBy(holds: VectorDefinition['holds'], observed: VectorObservation): Record<string, unknown> {
  const all = new Map<string, unknown>(Object.entries(observed));
  return Object.fromEntries(Object.keys(holds).map((key) => [key, all.get(key)]));
}
