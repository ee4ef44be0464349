// The large inputs of `npm run bench` and of the Workers memory test (test/runtimes/workers), generated
// with sharp from deterministic pixels into a cache folder, never committed: photos (gradients, hard-edged
// shapes, texture and grain) and screenshots (flat UI colours, 1–2 px glyph strokes, an embedded picture).
// HEIC and AVIF come from Debian's heif-enc (libheif-examples: x265 and libaom), which sharp's prebuilt
// libvips cannot write as HEVC, from a lossless PNG of the same pixels.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'package.json'));

/** Where inputs are cached between runs (the name changes when any input's recipe does). */
export const INPUT_DIR = path.join(os.tmpdir(), 'glimpse-bench-inputs-v1');

/**
 * Every input: file name → recipe. `kind` picks the pixels, `format` the encoding; `orientation` writes an
 * EXIF tag (the stored pixels stay as generated, so the upright image is the other way round).
 */
export const INPUTS = {
  'photo-4000x3000.jpg': { kind: 'photo', width: 4000, height: 3000, format: 'jpeg' },
  'photo-4000x3000.webp': { kind: 'photo', width: 4000, height: 3000, format: 'webp' },
  'photo-4000x3000-lossless.webp': { kind: 'photo', width: 4000, height: 3000, format: 'webp-lossless' },
  'photo-4000x3000.png': { kind: 'photo', width: 4000, height: 3000, format: 'png' },
  'photo-4000x3000-exif6.jpg': { kind: 'photo', width: 4000, height: 3000, format: 'jpeg', orientation: 6 },
  'photo-6000x4000-exif6.jpg': { kind: 'photo', width: 6000, height: 4000, format: 'jpeg', orientation: 6 },
  'photo-12000x8333.jpg': { kind: 'photo', width: 12000, height: 8333, format: 'jpeg' },
  'photo-4000x3000.heic': { kind: 'photo', width: 4000, height: 3000, format: 'heic' },
  // As an iPhone stores a 12 MP photo: 512×512 tiles, irot and Exif orientation 6 (scripts/phone-heic.ts).
  'photo-4032x3024-grid-irot.heic': { kind: 'photo', width: 4032, height: 3024, format: 'heic-phone', orientation: 6 },
  'photo-4000x3000.avif': { kind: 'photo', width: 4000, height: 3000, format: 'avif' },
  // As `avifenc -d 10` stores a 12 MP photo: 10-bit 4:4:4, the most memory an AV1 frame of that size takes.
  'photo-4032x3024-10bit-444.avif': { kind: 'photo', width: 4032, height: 3024, format: 'avif-10bit-444' },
  'photo-4000x3000-lzw.tif': { kind: 'photo', width: 4000, height: 3000, format: 'tiff-lzw' },
  // RGBA: the photo cut out along a soft-edged ellipse (photoAlphaPixels), which the fit writes as WebP.
  'photo-4000x3000-alpha-lzw.tif': { kind: 'photo-alpha', width: 4000, height: 3000, format: 'tiff-lzw' },
  'photo-2016x1512-alpha-lzw.tif': { kind: 'photo-alpha', width: 2016, height: 1512, format: 'tiff-lzw' },
  'photo-4000x3000-lzw-tiled.tif': { kind: 'photo', width: 4000, height: 3000, format: 'tiff-lzw-tiled' },
  // One strip of 3000 rows, as many scanners write: ImageMagick (/usr/bin/convert) rewrites the strips above.
  'photo-4000x3000-lzw-one-strip.tif': { kind: 'photo', width: 4000, height: 3000, format: 'tiff-lzw-one-strip' },
  'screenshot-1280x800.png': { kind: 'screenshot', width: 1280, height: 800, format: 'png', seed: 9 },
  'screenshot-2880x1800.png': { kind: 'screenshot', width: 2880, height: 1800, format: 'png', seed: 7 },
  'screenshot-3024x1964.png': { kind: 'screenshot', width: 3024, height: 1964, format: 'png', seed: 7 },
  'screenshot-3456x2234.png': { kind: 'screenshot', width: 3456, height: 2234, format: 'png', seed: 7 },
  'screenshot-8660x5773.png': { kind: 'screenshot', width: 8660, height: 5773, format: 'png', seed: 7 },
  'screenshot-7744x5164.gif': { kind: 'screenshot', width: 7744, height: 5164, format: 'gif', seed: 7 },
};

function lcg(seed) {
  let state = seed >>> 0;
  return () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

/**
 * Gradients, soft texture, hard-edged shapes and mild grain: what a camera photo asks of a resizer. RGB.
 * Computed a band of rows at a time, each shape only over its bounding box (a 100 MP photo in seconds);
 * the arithmetic and the order of random draws are those of the original per-pixel loop, so the
 * bench's 4000×3000 photo keeps its bytes.
 */
export function photoPixels(width, height) {
  const random = lcg(42);
  const shapes = Array.from({ length: 40 }, () => ({
    x: random() * width,
    y: random() * height,
    r: 40 + random() * 400,
    colour: [random() * 255, random() * 255, random() * 255],
    square: random() < 0.4,
  }));
  const raw = Buffer.alloc(width * height * 3);
  const BAND = 64;
  const r = new Float64Array(width * BAND);
  const g = new Float64Array(width * BAND);
  const b = new Float64Array(width * BAND);
  for (let y0 = 0; y0 < height; y0 += BAND) {
    const y1 = Math.min(height, y0 + BAND);
    for (let y = y0; y < y1; y++) {
      for (let x = 0; x < width; x++) {
        const i = (y - y0) * width + x;
        r[i] = 40 + (x / width) * 170;
        g[i] = 60 + (y / height) * 150;
        b[i] = 120 + 60 * Math.sin(x / 97 + y / 131);
      }
    }
    for (const s of shapes) {
      const reachY = s.square ? s.r * 0.6 : s.r;
      const top = Math.max(y0, Math.floor(s.y - reachY));
      const bottom = Math.min(y1 - 1, Math.ceil(s.y + reachY));
      const left = Math.max(0, Math.floor(s.x - s.r));
      const right = Math.min(width - 1, Math.ceil(s.x + s.r));
      for (let y = top; y <= bottom; y++) {
        for (let x = left; x <= right; x++) {
          const dx = x - s.x;
          const dy = y - s.y;
          const inside = s.square ? Math.abs(dx) < s.r && Math.abs(dy) < s.r * 0.6 : dx * dx + dy * dy < s.r * s.r;
          if (!inside) continue;
          const i = (y - y0) * width + x;
          r[i] = s.colour[0] * 0.8 + r[i] * 0.2;
          g[i] = s.colour[1] * 0.8 + g[i] * 0.2;
          b[i] = s.colour[2] * 0.8 + b[i] * 0.2;
        }
      }
    }
    for (let y = y0; y < y1; y++) {
      for (let x = 0; x < width; x++) {
        const texture = 10 * Math.sin(x / 5.3) * Math.sin(y / 7.1);
        const grain = (random() - 0.5) * 10;
        const i = (y - y0) * width + x;
        const o = (y * width + x) * 3;
        raw[o] = r[i] + texture + grain;
        raw[o + 1] = g[i] + texture + grain;
        raw[o + 2] = b[i] + texture + grain;
      }
    }
  }
  return raw;
}

/** Flat UI colours, a sidebar, rows of 1–2 px "glyphs", buttons and an embedded picture. RGBA. */
export function screenshotPixels(width, height, seed) {
  const random = lcg(seed);
  const raw = Buffer.alloc(width * height * 4, 255);
  const fill = (x0, y0, w, h, [r, g, b]) => {
    for (let y = Math.max(0, y0); y < Math.min(height, y0 + h); y++) {
      for (let x = Math.max(0, x0); x < Math.min(width, x0 + w); x++) raw.set([r, g, b, 255], (y * width + x) * 4);
    }
  };
  fill(0, 0, width, 56, [236, 236, 240]);
  fill(0, 56, Math.round(width * 0.18), height - 56, [246, 246, 248]);
  for (let y = 90; y < height - 40; y += 26 + Math.floor(random() * 10)) {
    let x = Math.round(width * 0.18) + 40;
    const end = x + random() * width * 0.7;
    while (x < Math.min(end, width - 20)) {
      const glyph = 4 + Math.floor(random() * 8);
      for (let stroke = 0; stroke < 3; stroke++)
        fill(
          x + Math.floor(random() * glyph),
          y + Math.floor(random() * 10),
          1 + Math.floor(random() * 2),
          2 + Math.floor(random() * 10),
          [30, 30, 36],
        );
      x += glyph + (random() < 0.15 ? 8 : 2);
    }
  }
  for (let i = 0; i < 6; i++) fill(Math.round(width * 0.2 + i * 140), 12, 120, 32, [40 + i * 30, 110, 220 - i * 20]);
  const px = Math.round(width * 0.62);
  const py = Math.round(height * 0.3);
  for (let y = 0; y < Math.round(height * 0.35); y++) {
    for (let x = 0; x < Math.round(width * 0.3); x++)
      raw.set([80 + (x % 170), 120 + (y % 120), 200 - ((x + y) % 150), 255], ((py + y) * width + px + x) * 4);
  }
  return raw;
}

/**
 * The photo with an alpha channel, as a product shot cut out of its background: opaque inside an ellipse
 * spanning 90 % of each side, transparent outside, with a soft edge 2 % of the shorter side wide; and
 * stronger grain (±6), as a camera's at high ISO, so that its PNG at 2000 px passes 3.75 MB and the fit
 * takes the alpha WebP path (without it, 3.1–3.2 MB: the PNG fits). RGBA.
 */
export function photoAlphaPixels(width, height) {
  const rgb = photoPixels(width, height);
  const raw = Buffer.alloc(width * height * 4);
  const random = lcg(7);
  const [cx, cy, rx, ry] = [width / 2, height / 2, width * 0.45, height * 0.45];
  const feather = Math.min(width, height) * 0.02;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      // Distance inside the edge, in pixels along the shorter radius (an approximation that is enough).
      const inside = (1 - Math.hypot((x - cx) / rx, (y - cy) / ry)) * Math.min(rx, ry);
      for (let c = 0; c < 3; c++) raw[i * 4 + c] = Math.min(255, Math.max(0, rgb[i * 3 + c] + (random() - 0.5) * 12));
      raw[i * 4 + 3] = Math.round(255 * Math.min(1, Math.max(0, inside / feather)));
    }
  }
  return raw;
}

async function encode(recipe, file) {
  if (recipe.format === 'heic-phone') {
    const here = path.dirname(fileURLToPath(import.meta.url));
    execFileSync(process.execPath, [path.join(here, 'run-ts.mjs'), path.join(here, 'phone-heic.ts'), file]);
    return;
  }
  if (recipe.format === 'tiff-lzw-one-strip') {
    const strips = await inputPath('photo-4000x3000-lzw.tif');
    const args = ['-compress', 'lzw', '-define', 'tiff:predictor=2', '-define', `tiff:rows-per-strip=${recipe.height}`];
    execFileSync('/usr/bin/convert', [strips, ...args, `tiff:${file}.partial`]);
    renameSync(`${file}.partial`, file);
    return;
  }
  const sharp = require('sharp');
  const { kind, width, height, format, orientation, seed } = recipe;
  const pixels =
    kind === 'photo'
      ? photoPixels(width, height)
      : kind === 'photo-alpha'
        ? photoAlphaPixels(width, height)
        : screenshotPixels(width, height, seed);
  let image = sharp(pixels, { raw: { width, height, channels: kind === 'photo' ? 3 : 4 }, limitInputPixels: false });
  if (orientation !== undefined) image = image.withMetadata({ orientation });
  if (format === 'jpeg') image = image.jpeg({ quality: 90 });
  else if (format === 'webp') image = image.webp({ quality: 85 });
  else if (format === 'webp-lossless') image = image.webp({ lossless: true, effort: 2 });
  else if (format === 'png') image = image.png();
  else if (format === 'gif') image = image.gif();
  else if (format === 'tiff-lzw') image = image.tiff({ compression: 'lzw', predictor: 'horizontal' });
  else if (format === 'tiff-lzw-tiled') {
    image = image.tiff({ compression: 'lzw', predictor: 'horizontal', tile: true, tileWidth: 256, tileHeight: 256 });
  } else if (format === 'heic' || format === 'avif' || format === 'avif-10bit-444') return heifEnc(image, format, file);
  else throw new Error(`unknown format ${format}`);
  // Written under a temporary name first, so an interrupted run never leaves half a file behind.
  await image.toFile(`${file}.partial`);
  renameSync(`${file}.partial`, file);
}

/**
 * HEIC (x265, quality 80) or AVIF (libaom, quality 70, speed 8 so that a 12 MP input takes seconds, not
 * minutes) through heif-enc, from a lossless PNG of the pixels; `avif-10bit-444` through avifenc (libaom,
 * speed 8, one thread), whose default is 4:4:4 (heif-enc's libaom cannot write 10-bit 4:4:4).
 */
async function heifEnc(image, format, file) {
  const png = `${file}.source.png`;
  await image.png({ compressionLevel: 1 }).toFile(png);
  try {
    if (format === 'avif-10bit-444') {
      execFileSync('avifenc', ['-s', '8', '-j', '1', '-d', '10', '-y', '444', png, `${file}.partial`], {
        stdio: 'pipe',
      });
    } else {
      const args = format === 'avif' ? ['-A', '-q', '70', '-p', 'speed=8'] : ['-q', '80'];
      execFileSync('heif-enc', [...args, '-o', `${file}.partial`, png], { stdio: 'pipe' });
    }
  } finally {
    rmSync(png, { force: true });
  }
  renameSync(`${file}.partial`, file);
}

/** The path of input `name`, generating it first when it is not cached yet. */
export async function inputPath(name) {
  const recipe = INPUTS[name];
  if (!recipe) throw new Error(`no bench input named ${name}`);
  mkdirSync(INPUT_DIR, { recursive: true });
  const file = path.join(INPUT_DIR, name);
  if (!existsSync(file)) await encode(recipe, file);
  return file;
}
