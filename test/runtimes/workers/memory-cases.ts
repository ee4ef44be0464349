// The inputs a Worker must fit to 2000 px with default options (issue 12), and the memory each may cost.
import { avifFrameBytes, hevcPictureBytes, jobMemoryBytes } from '../../../packages/media/src/pipeline/job-memory.js';
import { WORKER_LIMIT_BYTES } from './isolate-memory.js';

export interface MemoryCase {
  label: string;
  /** A file of scripts/bench-inputs.mjs. */
  input: string;
  /**
   * The whole decoded frame a codec must hold, in bytes, where it cannot decode in bands: added to the
   * budget (memoryBudget), and so only for codecs that need it. AV1 (AVIF): dav1d decodes a frame whole
   * (intra prediction and the in-loop filters reach across it, and it hands out whole pictures), each
   * plane padded to 128 pixels and, above 8 bits, 2 bytes a sample; its working buffers come on top
   * (0.5 bytes a pixel at 8 bits, 0.625 above). This is avifFrameBytes, what wasm/avif/decode.c's
   * check_memory counts before decoding. HEVC (a single-image HEIC): hevcPictureBytes.
   */
  decodedFrameBytes?: number;
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
  {
    label: 'HEIC 4000×3000 (12 MP), one coded image (heif-enc -q 80)',
    input: 'photo-4000x3000.heic',
    // heif-enc -q 80 writes this photo in 5.8 MB.
    decodedFrameBytes: hevcPictureBytes(4000, 3000, 6 * 2 ** 20),
  },
  { label: 'WebP lossless 4000×3000 (12 MP)', input: 'photo-4000x3000-lossless.webp' },
  { label: 'PNG screenshot 8660×5773 (50 MP)', input: 'screenshot-8660x5773.png' },
  { label: 'GIF 7744×5164 (40 MP)', input: 'screenshot-7744x5164.gif' },
  { label: 'TIFF 4000×3000 (12 MP), LZW, strips of 256 rows', input: 'photo-4000x3000-lzw.tif' },
  { label: 'TIFF 4000×3000 (12 MP), LZW, 256×256 tiles', input: 'photo-4000x3000-lzw-tiled.tif' },
  { label: 'TIFF 4000×3000 (12 MP), LZW, one strip', input: 'photo-4000x3000-lzw-one-strip.tif' },
  {
    label: 'AVIF 4000×3000 (12 MP), 8-bit 4:2:0 (heif-enc)',
    input: 'photo-4000x3000.avif',
    decodedFrameBytes: avifFrameBytes(4000, 3000, 8, '420'),
  },
  {
    label: 'AVIF 4032×3024 (12 MP), 10-bit 4:4:4 (avifenc -d 10)',
    input: 'photo-4032x3024-10bit-444.avif',
    decodedFrameBytes: avifFrameBytes(4032, 3024, 10, '444'),
  },
];

/**
 * The most a job may grow the isolate: the media core's estimate of a job (jobMemoryBytes, which its
 * memory governor admits jobs by: the request body and its one copy, 8 bytes per output pixel, 24 MB for
 * everything else, and the decoded frame where the codec must hold one whole), never more than the
 * Worker's 128 MB.
 */
export function memoryBudget(inputBytes: number, outputPixels: number, decodedFrameBytes = 0): number {
  return Math.min(WORKER_LIMIT_BYTES, jobMemoryBytes(inputBytes, outputPixels, decodedFrameBytes));
}
