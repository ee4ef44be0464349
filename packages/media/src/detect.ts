import { detectFormat } from './formats/registry.js';
import type { MediaType } from './types.js';

/**
 * Names the format from magic bytes alone; a file name is never consulted. Each format's check is in its
 * record (formats/<name>/format.ts), tried in the registry's order. Returns `undefined` when nothing matches.
 */
export function detect(bytes: Uint8Array): MediaType | undefined {
  return detectFormat(bytes)?.mediaType;
}
