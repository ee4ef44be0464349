// What a job may cost in memory at its peak, from header facts alone, before anything is decoded: the
// estimate the memory governor (runtime/memory-governor.ts) admits jobs by. It is the per-job budget the
// Workers memory test holds every case to (test/runtimes/workers/memory-cases.ts, docs/runtimes.md
// "Workers memory"): twice the input (the caller's bytes and one copy), 8 bytes per output pixel (the
// fitted raster and one more: the encoder's buffers), 24 MiB for the rest (codec instances' working
// memory, compiled code), and the decoded frame where a codec must hold one whole (AV1, HEVC).
import type { Limits } from '../presets/limits.js';
import type { Size } from '../raster/contract.js';
import { fitEdge } from './fit-edge.js';
import type { RasterSource } from './raster-source.js';

/** Everything a job holds besides its input, output and decoded frame. */
export const JOB_OVERHEAD_BYTES = 24 * 2 ** 20;

/** The per-job budget: 2 × input + 8 × output pixels + 24 MiB + the frame a codec holds whole. */
export function jobMemoryBytes(inputBytes: number, outputPixels: number, decodedFrameBytes = 0): number {
  return 2 * inputBytes + 8 * outputPixels + JOB_OVERHEAD_BYTES + decodedFrameBytes;
}

/**
 * What dav1d holds to decode a `width`×`height` AV1 frame with `bits` per sample and `chroma` layout
 * (wasm/avif/decode.c picture_bytes: each plane padded to 128 pixels, 2 bytes a sample above 8 bits, and
 * its working buffers, 0.5 bytes a pixel at 8 bits, 0.625 above).
 */
export function avifFrameBytes(width: number, height: number, bits: number, chroma: '420' | '444'): number {
  const sample = bits > 8 ? 2 : 1;
  const padded = (size: number) => Math.ceil(size / 128) * 128;
  const stride = (bytes: number) => (bytes % 1024 === 0 ? bytes + 64 : bytes);
  const lumaStride = stride(padded(width) * sample);
  const chromaStride = stride(chroma === '444' ? padded(width) * sample : (padded(width) * sample) / 2);
  const chromaRows = chroma === '444' ? padded(height) : padded(height) / 2;
  const picture = lumaStride * padded(height) + 2 * chromaStride * chromaRows + 64;
  return picture + width * height * (bits > 8 ? 0.625 : 0.5);
}

/**
 * What libde265 holds to decode a single-image HEIC (one HEVC picture, decoded whole; a phone's grid goes
 * a row of 512×512 tiles at a time instead): the picture (1.5 bytes a pixel at 8 bits, 4:2:0), its
 * metadata until it is done (1.1 bytes a pixel), and the coded data twice more than the request's copies.
 */
export function hevcPictureBytes(width: number, height: number, codedBytes: number): number {
  return Math.round(2.6 * width * height) + 2 * codedBytes;
}

/**
 * The estimate for a raster job. The probe does not say an AV1 item's chroma layout or whether a HEIC is
 * a grid, so both are taken at their costliest (4:4:4; one picture): an estimate may be high, never low.
 */
export function rasterJobMemory(source: RasterSource, limits: Limits): number {
  const { upright, bytes } = source;
  return jobMemoryBytes(bytes.byteLength, pixels(fitEdge(upright, limits.maxEdge)), decodedFrame(source));
}

function decodedFrame({ info, stored, bytes }: RasterSource): number {
  if (info.mediaType === 'image/avif') {
    const frame = avifFrameBytes(stored.width, stored.height, info.bitDepth ?? 8, '444');
    return info.hasAlpha ? 2 * frame : frame;
  }
  if (info.mediaType === 'image/heic' || info.mediaType === 'image/heif')
    return hevcPictureBytes(stored.width, stored.height, bytes.byteLength);
  return 0;
}

/** The estimate for a PDF job, which passes the file through or saves a copy of it: the file parsed and saved once more. */
export function pdfJobMemory(bytes: Uint8Array): number {
  return jobMemoryBytes(2 * bytes.byteLength, 0);
}

/**
 * The estimate for a PDFium call (renderPdfPage, pdfText): the instance at its memory cap (PDFium's use
 * depends on the page's content, which no header says), the file and a copy, and for a drawn page its
 * output raster (`outputPixels`, at most maxEdge on a side) and an encoder.
 */
export function pdfiumJobMemory(bytes: Uint8Array, maxMemory: number, outputPixels = 0): number {
  return 2 * bytes.byteLength + 8 * outputPixels + maxMemory;
}

/**
 * What a request's job is admitted with before its body is read (processRequest): only the length it
 * declares is known, so the output at its largest (maxEdge on both sides) or a PDF's parse and copy,
 * whichever is more. Once the header is read the job is refitted to its own estimate; only an AVIF or
 * HEIC, whose decoded frame counts too, can come out higher.
 */
export function requestJobMemory(declaredBytes: number, limits: Limits): number {
  return Math.max(jobMemoryBytes(declaredBytes, limits.maxEdge * limits.maxEdge), jobMemoryBytes(2 * declaredBytes, 0));
}

/** The estimate for an SVG job: its output is at most maxEdge on its longer side. */
export function svgJobMemory(bytes: Uint8Array, limits: Limits): number {
  return jobMemoryBytes(bytes.byteLength, limits.maxEdge * limits.maxEdge);
}

function pixels({ width, height }: Size): number {
  return width * height;
}
