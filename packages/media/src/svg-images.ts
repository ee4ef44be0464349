import { attribute } from './codecs/svg-attribute.js';
import { assertPixelBudget, type Limits } from './limits.js';
import { probe } from './probe.js';
import { decodeSvgText } from './probe/svg-text.js';
import type { ProbeResult, ProcessWarning } from './types.js';

const EMBEDDED_IMAGE = /data:image\/[\w.+-]+;base64,([A-Za-z0-9+/=\s]+)/g;

/** `<image>` and `<feImage>` elements (with or without a namespace prefix): their attribute text. */
const IMAGE_ELEMENT = /<(?:[\w.-]+:)?(?:image|feImage)\b([^>]*)>/g;

/** How many of the addresses the message quotes, and the warning lists; the message's count covers them all. */
const QUOTED_REFERENCES = 3;
const LISTED_REFERENCES = 20;

/**
 * The raster images an SVG draws, checked before rendering from one read of its text: the largest embedded
 * image's pixels (`assertEmbeddedImagesFit`) and a warning for those it links (`externalImageWarnings`).
 */
export async function checkSvgImages(
  bytes: Uint8Array,
  limits: Limits,
): Promise<{ embeddedImagePixels: number; warnings: ProcessWarning[] }> {
  const text = decodeSvgText(bytes, bytes.length);
  return { embeddedImagePixels: await assertEmbeddedImagesFit(text, limits), warnings: externalImageWarnings(text) };
}

/**
 * resvg decodes the raster images an SVG embeds as `data:` URIs by itself, so a tiny SVG can carry a
 * decompression bomb past the header guard. Each embedded image's header is checked against the same
 * pixel budget before rendering. (External references are never fetched: the core has no network.)
 * Returns the largest one's pixels: resvg decodes an image again each time it is drawn.
 */
async function assertEmbeddedImagesFit(text: string, limits: Limits): Promise<number> {
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

/**
 * `W_EXTERNAL_IMAGES` when the SVG draws images from files or URLs (`href="photo.png"`, `https://…`): the core
 * has no file system and no network, so resvg leaves them out, and the model should know that part is missing.
 * `data:` URIs are drawn, and `#id` references point inside the file.
 */
function externalImageWarnings(text: string): ProcessWarning[] {
  const references = new Set<string>();
  for (const [, attributes] of text.matchAll(IMAGE_ELEMENT)) {
    const href = attribute(attributes!, '(?:xlink:)?href').trim();
    if (href !== '' && !href.startsWith('#') && !/^data:/i.test(href)) references.add(href);
  }
  if (references.size === 0) return [];
  const quoted = [...references].slice(0, QUOTED_REFERENCES).map((href) => JSON.stringify(href.slice(0, 80)));
  const more = references.size > QUOTED_REFERENCES ? ` and ${references.size - QUOTED_REFERENCES} more` : '';
  return [
    {
      code: 'W_EXTERNAL_IMAGES',
      message: `The SVG draws ${references.size === 1 ? 'an image' : `${references.size} images`} from a file or URL (${quoted.join(', ')}${more}), which glimpse never fetches: ${references.size === 1 ? 'it is' : 'they are'} missing from the image. Embed images as data: URIs to have them drawn.`,
      references: [...references].slice(0, LISTED_REFERENCES).map((href) => href.slice(0, 2048)),
    },
  ];
}
