// The inputs a Worker must fit to 2000 px with default options (issue 12), and the memory each may cost.
import { WORKER_LIMIT_BYTES } from './isolate-memory.js';

export interface MemoryCase {
  label: string;
  /** A file of scripts/bench-inputs.mjs. */
  input: string;
}

export const MEMORY_CASES: readonly MemoryCase[] = [
  { label: 'JPEG 4000×3000 (12 MP), EXIF 6', input: 'photo-4000x3000-exif6.jpg' },
  { label: 'JPEG 6000×4000 (24 MP), EXIF 6', input: 'photo-6000x4000-exif6.jpg' },
  { label: 'PNG photo 4000×3000 (12 MP)', input: 'photo-4000x3000.png' },
  { label: 'PNG screenshot 2880×1800', input: 'screenshot-2880x1800.png' },
  { label: 'PNG screenshot 3024×1964', input: 'screenshot-3024x1964.png' },
  { label: 'PNG screenshot 3456×2234', input: 'screenshot-3456x2234.png' },
  { label: 'WebP lossy 4000×3000 (12 MP)', input: 'photo-4000x3000.webp' },
  { label: 'HEIC 4032×3024 (12 MP) from a phone: 512×512 tiles, irot', input: 'photo-4032x3024-grid-irot.heic' },
  { label: 'WebP lossless 4000×3000 (12 MP)', input: 'photo-4000x3000-lossless.webp' },
  { label: 'PNG screenshot 8660×5773 (50 MP)', input: 'screenshot-8660x5773.png' },
  { label: 'GIF 7744×5164 (40 MP)', input: 'screenshot-7744x5164.gif' },
  { label: 'TIFF 4000×3000 (12 MP), LZW, strips of 256 rows', input: 'photo-4000x3000-lzw.tif' },
  { label: 'TIFF 4000×3000 (12 MP), LZW, 256×256 tiles', input: 'photo-4000x3000-lzw-tiled.tif' },
  { label: 'TIFF 4000×3000 (12 MP), LZW, one strip', input: 'photo-4000x3000-lzw-one-strip.tif' },
];

/**
 * The most a job may grow the isolate: the request body and its one copy, 8 bytes per output pixel (the
 * fitted raster and one more), and 24 MB for everything else; never more than the Worker's 128 MB.
 */
export function memoryBudget(inputBytes: number, outputPixels: number): number {
  return Math.min(WORKER_LIMIT_BYTES, 2 * inputBytes + 8 * outputPixels + 24 * 2 ** 20);
}
