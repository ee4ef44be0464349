// Screenshot-like PNGs that PNG cannot squeeze: lines of small glyph-like marks (text) and a noisy panel (a
// photo or video in the window), from a seeded generator, so tests get megabytes of real image data without
// fixtures on disk. 1500×1000 with the default panel: ~1.1 MB as PNG; `noise: 1` (the whole frame): ~4.5 MB.
import sharp from 'sharp';

export interface DenseScreenshotOptions {
  seed: number;
  width?: number;
  height?: number;
  /** Share of each side the noisy panel takes (0–1). */
  noise?: number;
}

export async function denseScreenshot({
  seed,
  width = 1500,
  height = 1000,
  noise = 0.3,
}: DenseScreenshotOptions): Promise<Buffer> {
  let state = seed >>> 0 || 1;
  const random = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
  const pixels = Buffer.alloc(width * height * 3, 255);
  for (let y = 8; y + 10 < height; y += 14) {
    for (let x = 8; x < width - 16; x += 7) {
      const letters = 2 + Math.floor(random() * 8);
      for (let g = 0; g < letters && x < width - 16; g++, x += 7)
        for (let dy = 0; dy < 9; dy++)
          for (let dx = 0; dx < 6; dx++) {
            if (random() >= 0.45) continue;
            const i = ((y + dy) * width + x + dx) * 3;
            const ink = Math.floor(random() * 80);
            pixels[i] = ink;
            pixels[i + 1] = ink;
            pixels[i + 2] = ink + 40;
          }
    }
  }
  const panelWidth = Math.floor(width * noise);
  const panelHeight = Math.floor(height * noise);
  for (let y = height - panelHeight; y < height; y++)
    for (let x = width - panelWidth; x < width; x++) {
      const i = (y * width + x) * 3;
      pixels[i] = random() * 256;
      pixels[i + 1] = random() * 256;
      pixels[i + 2] = random() * 256;
    }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}
