// What an SVG's filters cost, judged from its source text: the reads per output pixel of each primitive,
// times the share of the canvas each filtered element covers, times the pixels it is drawn at.
import { attribute } from './attribute.js';
import type { SvgSize } from './probe.js';
import { formatNumber, numbers, refuse } from './refuse.js';

/**
 * Filter reads in all: output pixels x reads per pixel of each primitive x the share of the canvas each
 * filtered element covers. ~1.3-1.7 s of CPU here; one blur over a whole 1200x1200 image is 0.9e8, over
 * 2000x2000 2.6e8 (4.4 s: refused, a lower maxEdge renders it). The fuzzer's 1,240-octave noise on a 64x64
 * canvas (1.7e8, 1.1 s of CPU, over 10 s wall at load ~14) is refused.
 */
export const MAX_FILTER_READS = 1e8;
/** Dashes in all dashed strokes (tiny-skia builds each as its own path: ~3 µs a dash). */

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

/** The filter reads the SVG's filters will do; refuses more than `MAX_FILTER_READS`. */
export function assertFilterBounds(svg: string, size: SvgSize, scale: number): number {
  const pixelsPerUnit =
    scale * (size.viewBox ? Math.max(size.width / size.viewBox.width, size.height / size.viewBox.height) : 1);
  // Reads per pixel of each <filter>: over the part of its region on the canvas, and over all of it.
  const filters = new Map<string, FilterWork>();
  let costliest: FilterWork = { clipped: 0, generated: 0 };
  for (const [, attributes = '', body = ''] of svg.matchAll(
    /<(?:\w+:)?filter\b([^>]*)>([\s\S]*?)<\/(?:\w+:)?filter\s*>/g,
  )) {
    const work: FilterWork = { clipped: 0, generated: 0 };
    for (const [, name = '', primitive = ''] of body.matchAll(/<(?:\w+:)?(fe[A-Z]\w*)\b([^>]*)>/g)) {
      work[GENERATORS.has(name) ? 'generated' : 'clipped'] += primitiveWork(name, primitive, pixelsPerUnit);
    }
    // Ids are not always unique, and usvg resolves a duplicate to the last one: the costliest counts.
    const id = attribute(attributes, 'id');
    const known = filters.get(id);
    if (!known || work.clipped + work.generated > known.clipped + known.generated) filters.set(id, work);
    if (work.clipped + work.generated > costliest.clipped + costliest.generated) costliest = work;
  }
  // Each element drawn through a filter runs it over its own region: its box plus 10 % each side. resvg clips
  // that to the canvas, except for primitives that generate pixels (noise, flood): they fill all of it.
  const canvasArea = size.viewBox ? size.viewBox.width * size.viewBox.height : size.width * size.height;
  let perPixel = 0;
  let uses = 0;
  const use = (value: string, area: number | undefined) => {
    const work = filterValueWork(value, filters, costliest);
    if (work.clipped + work.generated === 0) return;
    uses++;
    const share = area === undefined ? 1 : (1.44 * area) / canvasArea;
    perPixel += work.clipped * Math.min(1, share) + work.generated * Math.max(1, share);
  };
  for (const [tag, , value = ''] of svg.matchAll(/<[\w:-]+\s[^>]*\bfilter\s*(=\s*["']|:)([^"';]*)[^>]*>/g))
    use(value, elementArea(tag));
  // A filter in a style sheet may apply to any element: counted once over the whole canvas.
  for (const [, sheet = ''] of svg.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style\s*>/g)) {
    for (const [, value = ''] of sheet.matchAll(/\bfilter\s*:\s*([^;}]*)/g)) use(value, undefined);
  }
  const width = Math.max(1, Math.round(size.width * scale));
  const height = Math.max(1, Math.round(size.height * scale));
  const pixels = width * height;
  const reads = pixels * perPixel;
  if (!(reads <= MAX_FILTER_READS)) {
    refuse(
      `${uses} element${uses === 1 ? ' is' : 's are'} drawn through filters that read each of its ${width}x${height} pixels about ${formatNumber(perPixel)} times, ${formatNumber(reads)} reads in all (at most ${formatNumber(MAX_FILTER_READS)}); a lower maxEdge renders fewer pixels and shrinks large radii`,
      { filterReads: reads, filterUses: uses },
    );
  }
  return reads;
}

interface FilterWork {
  /** Reads per pixel over the part of the filter region on the canvas. */
  clipped: number;
  /** Reads per pixel over the whole region. */
  generated: number;
}

/** The work of a `filter` value: `url(#id)` (an unknown id counts as the costliest filter) and CSS functions (`blur(4px)`). */
function filterValueWork(value: string, filters: ReadonlyMap<string, FilterWork>, costliest: FilterWork): FilterWork {
  const work: FilterWork = { clipped: 0, generated: 0 };
  for (const [, name = '', argument = ''] of value.matchAll(/([a-z-]+)\(([^)]*)\)?/g)) {
    if (name === 'url') {
      const referenced = filters.get(/#([^)'"\s]*)/.exec(argument)?.[1] ?? '') ?? costliest;
      work.clipped += referenced.clipped;
      work.generated += referenced.generated;
    } else {
      work.clipped += name === 'blur' || name === 'drop-shadow' ? 64 : 8;
    }
  }
  return work;
}

/** Primitives that fill their whole region, however far past the canvas it reaches (measured: noise over a 2,260-unit circle on a 64-unit canvas takes 44x as long as over a 60-unit one). */
const GENERATORS = new Set(['feTurbulence', 'feFlood', 'feImage']);

/** The area an element's filter covers, in user units, from the size it states (none: the canvas, as a group's). */
function elementArea(tag: string): number | undefined {
  const first = (name: string) => numbers(attribute(tag, name))[0];
  const width = first('width');
  const height = first('height');
  if (width !== undefined && height !== undefined) return width * height;
  const r = first('r');
  if (r !== undefined) return 4 * r * r;
  const rx = first('rx');
  const ry = first('ry');
  if (rx !== undefined && ry !== undefined) return 4 * rx * ry;
  return undefined;
}
