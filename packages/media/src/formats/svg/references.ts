// What an SVG draws from outside its own elements: raster images embedded as `data:` URIs (resvg decodes
// them itself, so the pipeline checks their headers against the pixel budget first), and images, shapes and
// paints it links from files or URLs, which the core never fetches.
import type { ProcessWarning } from '../../types.js';
import { attribute } from './attribute.js';

const EMBEDDED_IMAGE = /data:image\/[\w.+-]+;base64,([A-Za-z0-9+/=\s]+)/g;

/** `<image>`, `<feImage>` and `<use>` elements (with or without a namespace prefix): name and attribute text. */
const LINKING_ELEMENT = /<(?:[\w.-]+:)?(image|feImage|use)\b([^>]*)>/g;

/**
 * A paint, clip path, mask, filter or marker taken from another file (`fill="url(paints.svg#g)"`, or the same
 * in a style): resvg resolves `url()` only within the file. Fonts (`@font-face`) are not images: not matched.
 */
const LINKED_PROPERTY =
  /\b(?:fill|stroke|clip-path|mask|filter|marker(?:-start|-mid|-end)?)\s*(?:=\s*["']|:)\s*url\(\s*["']?([^"')]*)/g;

/** How many of the addresses the message quotes, and the warning lists; the message's count covers them all. */
const QUOTED_REFERENCES = 3;
const LISTED_REFERENCES = 20;

/** The base64 payloads of the raster images `svgText` embeds as `data:` URIs, in the order they appear. */
export function embeddedImagePayloads(svgText: string): string[] {
  return Array.from(svgText.matchAll(EMBEDDED_IMAGE), (match) => match[1]!);
}

/**
 * `W_EXTERNAL_IMAGES` when the SVG draws images from files or URLs (`href="photo.png"`, `https://…`), or shapes
 * and paints from other SVG files (`<use href="icons.svg#star">`, `fill="url(paints.svg#g)"`): the core has no
 * file system and no network, so resvg leaves them out, and the model should know that part is missing.
 * `data:` URIs are drawn, and `#id` references point inside the file.
 */
export function externalImageWarnings(text: string): ProcessWarning[] {
  const references = new Set<string>();
  let shapes = false;
  const note = (href: string, image: boolean) => {
    href = href.trim();
    if (href === '' || href.startsWith('#') || /^data:/i.test(href)) return;
    references.add(href);
    shapes ||= !image;
  };
  for (const [, element, attributes] of text.matchAll(LINKING_ELEMENT)) {
    note(attribute(attributes!, '(?:xlink:)?href'), element !== 'use');
  }
  for (const [, href] of text.matchAll(LINKED_PROPERTY)) note(href!, false);
  if (references.size === 0) return [];
  const count = references.size;
  const quoted = [...references].slice(0, QUOTED_REFERENCES).map((href) => JSON.stringify(href.slice(0, 80)));
  const more = count > QUOTED_REFERENCES ? ` and ${count - QUOTED_REFERENCES} more` : '';
  const what = shapes
    ? count === 1
      ? 'an image, shape or paint'
      : `${count} images, shapes or paints`
    : count === 1
      ? 'an image'
      : `${count} images`;
  const consequence = shapes
    ? 'images and shapes from elsewhere are missing from the image, and paints, clips and masks from elsewhere are not applied. Embed images as data: URIs, and copy what it takes from other SVG files into this one, to have them drawn.'
    : `${count === 1 ? 'it is' : 'they are'} missing from the image. Embed images as data: URIs to have them drawn.`;
  return [
    {
      code: 'W_EXTERNAL_IMAGES',
      message: `The SVG draws ${what} from a file or URL (${quoted.join(', ')}${more}), which glimpse never fetches: ${consequence}`,
      references: [...references].slice(0, LISTED_REFERENCES).map((href) => href.slice(0, 2048)),
    },
  ];
}
