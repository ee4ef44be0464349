// Cheap facts checked before resvg runs: parsing and rendering are synchronous WASM calls that no time
// budget can interrupt, so anything that would make them run long is refused up front (`E_TOO_COMPLEX`).
import { MediaError } from '../errors.js';
import type { SvgSize } from '../probe/svg.js';

/** Characters of <text> content. usvg shapes every glyph into paths while parsing. */
export const MAX_SVG_TEXT_CHARS = 20_000;
/** Element nesting depth; drawings stay far below it (roxmltree itself stops at 1024). */
export const MAX_SVG_DEPTH = 256;
/**
 * Filter work in reads per output pixel, with every primitive in the document counted as if it covered the
 * whole canvas (its region is at most that): 256 allows several blurs or drop shadows over the whole image,
 * and refuses the reproducers (feMorphology radius 1e6; a million noise octaves) before they start.
 */
export const MAX_FILTER_WORK_PER_PIXEL = 256;
/**
 * The same summed over every element drawn through a filter, each weighted by the share of the canvas it
 * covers (from its width and height where it states them, else the whole canvas): four filter chains at
 * the per-pixel limit over the whole image, or many small shadows.
 */
export const MAX_FILTER_WORK_ALL_USES = 4 * MAX_FILTER_WORK_PER_PIXEL;

/** Reads per pixel of one filter primitive, measured relative to one feMorphology read in resvg 2.6. */
function primitiveWork(name: string, attributes: string, pixelsPerUnit: number): number {
  switch (name) {
    case 'feMorphology': {
      const [rx = 0, ry = rx] = numbers(attribute(attributes, 'radius')).map((r) => r * pixelsPerUnit);
      return (2 * Math.ceil(rx) + 1) * (2 * Math.ceil(ry) + 1);
    }
    case 'feConvolveMatrix': {
      const [x = 3, y = x] = numbers(attribute(attributes, 'order'));
      return 2 * x * y;
    }
    case 'feTurbulence':
      return 30 * Math.max(1, numbers(attribute(attributes, 'numOctaves'))[0] ?? 1);
    case 'feGaussianBlur':
    case 'feDropShadow':
    case 'feDiffuseLighting':
    case 'feSpecularLighting':
      return 64;
    default:
      return 8;
  }
}

/**
 * Refuses an SVG whose rendering cost is out of proportion, judged from its source text: how much text it
 * lays out, how deeply it nests, and what its filters cost at the size they will be drawn (`size` is the
 * SVG's intrinsic size, rendered at `scale`).
 */
export function assertSvgBounds(svg: string, drawnText: string, size: SvgSize, scale: number): void {
  if (drawnText.length > MAX_SVG_TEXT_CHARS) {
    refuse(`it draws ${drawnText.length} characters of text (at most ${MAX_SVG_TEXT_CHARS} are laid out)`, { characters: drawnText.length });
  }
  const depth = nestingDepth(svg);
  if (depth > MAX_SVG_DEPTH) refuse(`its elements nest ${depth} levels deep (at most ${MAX_SVG_DEPTH})`, { depth });

  const pixelsPerUnit = scale * (size.viewBox ? Math.max(size.width / size.viewBox.width, size.height / size.viewBox.height) : 1);
  let perUse = 0;
  for (const [, name = '', attributes = ''] of svg.matchAll(/<(?:\w+:)?(fe[A-Z]\w*)\b([^>]*)>/g)) perUse += primitiveWork(name, attributes, pixelsPerUnit);
  if (perUse === 0) return;
  if (!(perUse <= MAX_FILTER_WORK_PER_PIXEL)) {
    refuse(`its filters would read each pixel about ${formatNumber(perUse)} times (at most ${MAX_FILTER_WORK_PER_PIXEL}); a lower maxEdge lowers large radii`, { filterWork: perUse });
  }
  // Each element drawn through a filter runs it over its own region: its box plus 10 % each side, at most the canvas.
  const canvasArea = size.viewBox ? size.viewBox.width * size.viewBox.height : size.width * size.height;
  let coverage = 0;
  let uses = 0;
  for (const [tag] of svg.matchAll(/<[\w:-]+\s[^>]*\bfilter\s*[=:]\s*["']?\s*url\([^>]*>/g)) {
    uses++;
    const width = numbers(attribute(tag, 'width'))[0];
    const height = numbers(attribute(tag, 'height'))[0];
    coverage += width !== undefined && height !== undefined ? Math.min(1, (1.44 * width * height) / canvasArea) : 1;
  }
  const work = perUse * Math.max(1, coverage);
  if (!(work <= MAX_FILTER_WORK_ALL_USES)) {
    refuse(`${uses} elements are drawn through filters, about ${formatNumber(work)} reads per pixel in all (at most ${MAX_FILTER_WORK_ALL_USES})`, { filterWork: work, filterUses: uses });
  }
}

function refuse(problem: string, details: Record<string, unknown>): never {
  throw new MediaError('E_TOO_COMPLEX', `The SVG would take too long to render: ${problem}. Simplify it, or render it in a browser and send the PNG.`, { format: 'SVG', ...details });
}

function attribute(attributes: string, name: string): string {
  return new RegExp(`(?:^|\\s)${name}\\s*=\\s*(["'])([^"']*)\\1`).exec(attributes)?.[2] ?? '';
}

/** Numbers in an attribute value; anything unparseable counts as infinite, so it is refused rather than guessed. */
function numbers(value: string): number[] {
  if (value.trim() === '') return [];
  return value.trim().split(/[\s,]+/).map((token) => {
    const n = Math.abs(Number(token));
    return Number.isFinite(n) ? n : Infinity;
  });
}

function formatNumber(n: number): string {
  return Number.isFinite(n) && n < 1e9 ? String(Math.round(n)) : n.toExponential(1);
}

/** The deepest element nesting, from start and end tags (comments, CDATA and declarations skipped). */
function nestingDepth(svg: string): number {
  let depth = 0;
  let deepest = 0;
  for (const tag of svg.matchAll(/<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<[!?][^>]*>|<(\/?)[^>]*?(\/?)>/g)) {
    if (tag[0].startsWith('<!') || tag[0].startsWith('<?')) continue;
    if (tag[1] === '/') depth--;
    else if (tag[2] !== '/') deepest = Math.max(deepest, ++depth);
  }
  return deepest;
}
