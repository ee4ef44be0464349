// Cheap facts checked before resvg runs: parsing and rendering are synchronous WASM calls that no time
// budget can interrupt, so anything that would make them run long is refused up front (`E_TOO_COMPLEX`).
// Two looks: the source text before parsing (text, nesting, `<use>` fan-out and marker copies (markers.ts, element-facts.ts),
// filters against the output's pixels: filter-work.ts), and usvg's own tree after parsing (`Resvg#toString`: CSS applied and `<use>` expanded), for the
// stroke facts only the resolved tree states reliably. Painted area, also from the tree, is in paint.ts.
//
// Calibrated on the 2-core development machine (CPU time, `process.cpuUsage`, load average ~12): a 2000x2000
// feGaussianBlur took 4.4 s, feMorphology radius 7 (225 reads a pixel) 11.8 s, 4-octave feTurbulence 6.1 s:
// 13-17 ns per read. 10,000 elements drawn through `<use>` took ~1 s to parse and render; 20,000 characters
// of text 1.5-2.6 s to lay out (5,000: 0.15 s); 420,000 dashes on one line 1.4 s; a circle stroked 1e6 wide 0.3-1.9 s.
import { elementFacts, MAX_SVG_DEPTH } from './element-facts.js';
import { assertFilterBounds } from './filter-work.js';
import type { SvgSize } from './probe.js';
import { attribute } from './attribute.js';
import { formatNumber, numbers, refuse } from './refuse.js';

/** Characters of <text> content. usvg shapes every glyph into paths while parsing, worse than linearly. */
export const MAX_SVG_TEXT_CHARS = 10_000;
/** Elements drawn once every `<use>` is expanded (usvg's own stop is 1,000,000: minutes of work). */
export const MAX_SVG_ELEMENTS = 50_000;
/** Dashes in all dashed strokes (tiny-skia builds each as its own path: ~3 µs a dash). */
export const MAX_SVG_DASHES = 200_000;
/**
 * Pixels of embedded raster images decoded in all: resvg decodes an image each time it is drawn (a 16 MP
 * PNG drawn 20 times through `<use>` took 11 s of CPU, ~30 ns a pixel). One draw of the largest image
 * is always allowed (the pixel limit bounds it).
 */
export const MAX_SVG_IMAGE_PIXELS = 5e7;
/** A stroke this many times wider than the canvas's diagonal costs seconds and draws the same as a narrower one. */
export const MAX_STROKE_TO_CANVAS = 1000;

/**
 * Refuses an SVG whose parsing or rendering cost is out of proportion, judged from its source text: how much
 * text it lays out, how deeply it nests, how many elements `<use>` makes of it, and what its filters cost at
 * the size they will be drawn (`size` is the SVG's intrinsic size, rendered at `scale`).
 */
export function assertSvgBounds(
  svg: string,
  drawnText: string,
  size: SvgSize,
  scale: number,
  embeddedImagePixels = 0,
): { filterReads: number } {
  if (drawnText.length > MAX_SVG_TEXT_CHARS) {
    refuse(`it draws ${drawnText.length} characters of text (at most ${MAX_SVG_TEXT_CHARS} are laid out)`, {
      characters: drawnText.length,
    });
  }
  const { depth, elements, characters, images, markers } = elementFacts(svg);
  if (depth > MAX_SVG_DEPTH) refuse(`its elements nest ${depth} levels deep (at most ${MAX_SVG_DEPTH})`, { depth });
  if (characters > MAX_SVG_TEXT_CHARS) {
    refuse(
      `it draws about ${formatNumber(characters)} characters of text once every <use> is expanded (at most ${MAX_SVG_TEXT_CHARS} are laid out)`,
      { characters },
    );
  }
  if (!(elements <= MAX_SVG_ELEMENTS)) {
    refuse(
      markers > 0
        ? `it draws about ${formatNumber(elements)} elements once every <use> and marker is expanded (at most ${MAX_SVG_ELEMENTS}), among them ${formatNumber(markers)} copies of markers (marker-mid copies its marker onto every vertex of a path: mark fewer vertices)`
        : `it draws about ${formatNumber(elements)} elements once every <use> is expanded (at most ${MAX_SVG_ELEMENTS})`,
      { elements, ...(markers > 0 && { markerCopies: markers }) },
    );
  }
  const imagePixels = images * embeddedImagePixels;
  if (imagePixels > Math.max(MAX_SVG_IMAGE_PIXELS, embeddedImagePixels)) {
    refuse(
      `it draws embedded images ${images} times, up to ${formatNumber(embeddedImagePixels)} pixels each, and each draw decodes the image again (at most ${formatNumber(MAX_SVG_IMAGE_PIXELS)} pixels in all)`,
      { imageDraws: images, imagePixels },
    );
  }
  return { filterReads: assertFilterBounds(svg, size, scale) };
}

/**
 * Refuses what usvg's resolved tree (`Resvg#toString`, in user units, CSS applied, `<use>` expanded) shows
 * would render too long: strokes far wider than the canvas, and too many dashes.
 */
export function assertSvgTreeBounds(tree: string): void {
  const viewBox = /<svg\b[^>]*\bviewBox="([^"]*)"/.exec(tree)?.[1];
  const [, , width = 0, height = 0] = numbers(viewBox ?? '');
  const diagonal = Math.hypot(width, height);
  let dashes = 0;
  for (const [tag] of tree.matchAll(/<path\b[^>]*>/g)) {
    const strokeWidth = numbers(attribute(tag, 'stroke-width'))[0];
    if (strokeWidth !== undefined && diagonal > 0 && !(strokeWidth <= MAX_STROKE_TO_CANVAS * diagonal)) {
      refuse(
        `a stroke is ${formatNumber(strokeWidth)} units wide, more than ${MAX_STROKE_TO_CANVAS} times the ${formatNumber(diagonal)}-unit canvas`,
        { strokeWidth },
      );
    }
    const pattern = numbers(attribute(tag, 'stroke-dasharray'));
    if (pattern.length === 0) continue;
    const period = pattern.reduce((sum, n) => sum + n, 0);
    dashes += period > 0 ? (polylineLength(attribute(tag, 'd')) / period) * Math.max(1, pattern.length / 2) : 0;
    if (!(dashes <= MAX_SVG_DASHES))
      refuse(`its dashed strokes have about ${formatNumber(dashes)} dashes (at most ${MAX_SVG_DASHES})`, { dashes });
  }
}

/** The length through every point of usvg's path data (absolute M/L/C/Z: a curve's control polygon, at least its length). */
function polylineLength(d: string): number {
  const values = d.match(/-?[\d.]+(?:e[-+]?\d+)?/gi)?.map(Number) ?? [];
  let length = 0;
  for (let i = 2; i + 1 < values.length; i += 2)
    length += Math.hypot((values[i] ?? 0) - (values[i - 2] ?? 0), (values[i + 1] ?? 0) - (values[i - 1] ?? 0));
  return length;
}
