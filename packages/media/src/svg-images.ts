import { assertPixelBudget, type Limits } from './limits.js';
import { probe } from './probe.js';
import { decodeSvgText } from './probe/svg-text.js';
import type { ProbeResult } from './types.js';

const EMBEDDED_IMAGE = /data:image\/[\w.+-]+;base64,([A-Za-z0-9+/=\s]+)/g;

/**
 * resvg decodes the raster images an SVG embeds as `data:` URIs by itself, so a tiny SVG can carry a
 * decompression bomb past the header guard. Each embedded image's header is checked against the same
 * pixel budget before rendering. (External references are never fetched: the core has no network.)
 * Returns the largest one's pixels: resvg decodes an image again each time it is drawn.
 */
export async function assertEmbeddedImagesFit(bytes: Uint8Array, limits: Limits): Promise<number> {
  const text = decodeSvgText(bytes, bytes.length);
  let largest = 0;
  for (const match of text.matchAll(EMBEDDED_IMAGE)) {
    const info = await headerOf(match[1]!);
    if (!(info?.width && info.height)) continue;
    assertPixelBudget(info, limits);
    largest = Math.max(largest, info.width * info.height);
  }
  return largest;
}

/** Header facts of one embedded image, or undefined when it is unreadable (resvg then skips it). */
async function headerOf(base64: string): Promise<ProbeResult | undefined> {
  try {
    return await probe(Uint8Array.from(atob(base64.replace(/\s+/g, '')), (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}
