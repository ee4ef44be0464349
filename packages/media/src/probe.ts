import { recognise } from './formats/registry.js';
import type { ProbeResult } from './types.js';

/**
 * Header facts without decoding pixels. Unknown bytes are `E_UNSUPPORTED`; a known format whose header
 * is truncated or malformed is `E_CORRUPT` (`E_SVG_INVALID` for SVG). TIFF, HEIC/HEIF, AVIF, JPEG XL and
 * ICO are named (with their size when it is cheap to read: not for JPEG XL) so the caller can refuse them clearly.
 */
export async function probe(bytes: Uint8Array): Promise<ProbeResult> {
  return (await recognise(bytes).probe(bytes)).info;
}
