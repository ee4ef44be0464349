// Test-side decoding and comparison, done with sharp (native libvips) so the pipeline is checked by an independent decoder.
import sharp from 'sharp';

export interface Decoded {
  data: Uint8Array;
  width: number;
  height: number;
  /** Channels in the file itself (4 = has alpha). */
  channels: number;
  format: string;
}

/** Decodes any image to RGBA8 with sharp, applying no orientation (what a provider does with our output). */
export async function decodeIndependently(bytes: Uint8Array): Promise<Decoded> {
  const meta = await sharp(bytes).metadata();
  const { data, info } = await sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return {
    data: new Uint8Array(data),
    width: info.width,
    height: info.height,
    channels: meta.channels ?? 0,
    format: meta.format ?? '',
  };
}

/** The reference rendering: sharp turns the source upright, flattens nothing, and resizes to the same size. */
export async function reference(bytes: Uint8Array, width: number, height: number): Promise<Uint8Array> {
  const { data } = await sharp(bytes, { pages: 1 })
    .autoOrient()
    .resize(width, height, { fit: 'fill', kernel: 'lanczos3' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return new Uint8Array(data);
}

/**
 * Mean absolute difference per channel (0–255) of two RGBA8 buffers, colours weighted by alpha
 * (premultiplied), so the invisible colour under transparent pixels does not count.
 */
export function meanAbsDiff(a: Uint8Array, b: Uint8Array): number {
  if (a.length !== b.length) throw new Error(`size mismatch ${a.length} vs ${b.length}`);
  let total = 0;
  for (let i = 0; i < a.length; i += 4) {
    const alphaA = a[i + 3]!;
    const alphaB = b[i + 3]!;
    for (let c = 0; c < 3; c++) total += Math.abs((a[i + c]! * alphaA - b[i + c]! * alphaB) / 255);
    total += Math.abs(alphaA - alphaB);
  }
  return total / a.length;
}

/** Whether any pixel has alpha below 255. */
export function hasTransparency(rgba: Uint8Array): boolean {
  for (let i = 3; i < rgba.length; i += 4) if (rgba[i]! < 255) return true;
  return false;
}
