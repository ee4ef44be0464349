// The SVG job: the images it embeds checked against the pixel budget, rendered by resvg within maxEdge
// (the cheap-facts refusals first), and fitted like any raster.
import type { Probed } from '../formats/format.js';
import { recognise } from '../formats/registry.js';
import { rasterizeSvg } from '../formats/svg/rasterize.js';
import { embeddedImagePayloads, externalImageWarnings } from '../formats/svg/references.js';
import { decodeSvgText } from '../formats/svg/text.js';
import { assertPixelBudget, type Limits } from '../presets/limits.js';
import { fitWorkingSize } from '../presets/working-size.js';
import { resizeRaster } from '../raster/resize.js';
import { anyTransparent } from '../raster/pixels.js';
import type { Deadline } from '../runtime/deadline.js';
import type { ProbeResult, ProcessResult, SvgInfo } from '../types.js';
import { fitWithinLimits } from './fit.js';
import { chooseEncoding } from './output-encoding.js';
import { reencodedResult } from './result.js';

/** Renders the SVG to an image (PNG: its pixels are exact) within the limits. */
export async function processSvg(
  bytes: Uint8Array,
  info: SvgInfo,
  limits: Limits,
  fonts: readonly Uint8Array[],
  deadline: Deadline,
): Promise<ProcessResult> {
  const text = decodeSvgText(bytes, bytes.length);
  const embeddedImagePixels = await assertEmbeddedImagesFit(text, limits);
  const images = externalImageWarnings(text);
  deadline.check('Checking the SVG');
  const rendered = await rasterizeSvg(bytes, { maxEdge: limits.maxEdge, fonts, embeddedImagePixels });
  deadline.check('Rendering the SVG');
  const { warnings } = rendered;
  // resvg renders to the longest side; a patch budget or short side (the model's working size) shrinks it further.
  const working = fitWorkingSize(rendered.raster, limits);
  const raster =
    working.width === rendered.raster.width && working.height === rendered.raster.height
      ? rendered.raster
      : await resizeRaster(rendered.raster, working.width, working.height, true);
  const hasAlpha = anyTransparent(raster);
  const fitted = await fitWithinLimits({
    raster,
    hasAlpha,
    preferred: chooseEncoding({ source: info.mediaType, lossless: true, hasAlpha }, limits.accepts),
    maxBytes: limits.maxBytes,
    accepts: limits.accepts,
    deadline,
  });
  const resized = fitted.width !== info.width || fitted.height !== info.height;
  return reencodedResult(fitted, info, ['rasterized'], resized, [...warnings, ...images]);
}

/**
 * resvg decodes the raster images an SVG embeds as `data:` URIs by itself, so a tiny SVG can carry a
 * decompression bomb past the header guard. Each embedded image's header is checked against the same
 * pixel budget before rendering. (External references are never fetched: the core has no network.)
 * Returns the largest one's pixels: resvg decodes an image again each time it is drawn.
 */
async function assertEmbeddedImagesFit(text: string, limits: Limits): Promise<number> {
  let largest = 0;
  for (const payload of embeddedImagePayloads(text)) {
    const info = await headerOf(payload);
    if (!(info?.width && info.height)) continue;
    assertPixelBudget(info, limits);
    largest = Math.max(largest, info.width * info.height);
  }
  return largest;
}

/** Header facts of one embedded image, or undefined when it is unreadable (resvg then skips it). */
async function headerOf(base64: string): Promise<ProbeResult | undefined> {
  try {
    const bytes = Uint8Array.from(atob(base64.replace(/\s+/g, '')), (c) => c.charCodeAt(0));
    const probed: Probed<ProbeResult> = await recognise(bytes).probe(bytes);
    return probed.info;
  } catch {
    return undefined;
  }
}
