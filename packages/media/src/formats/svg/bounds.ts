// Cheap facts checked before resvg runs: parsing and rendering are synchronous WASM calls that no time
// budget can interrupt, so anything that would make them run long is refused up front (`E_TOO_COMPLEX`).
// Two looks: the source text before parsing (text, nesting, `<use>` fan-out and marker copies (svg-markers.ts),
// filters against the output's pixels), and usvg's own tree after parsing (`Resvg#toString`: CSS applied and `<use>` expanded), for the
// stroke facts only the resolved tree states reliably. Painted area, also from the tree, is in svg-paint.ts.
//
// Calibrated on the 2-core development machine (CPU time, `process.cpuUsage`, load average ~12): a 2000x2000
// feGaussianBlur took 4.4 s, feMorphology radius 7 (225 reads a pixel) 11.8 s, 4-octave feTurbulence 6.1 s:
// 13-17 ns per read. 10,000 elements drawn through `<use>` took ~1 s to parse and render; 20,000 characters
// of text 1.5-2.6 s to lay out (5,000: 0.15 s); 420,000 dashes on one line 1.4 s; a circle stroked 1e6 wide 0.3-1.9 s.
import { MediaError } from '../../errors.js';
import type { SvgSize } from './probe.js';
import { attribute } from './attribute.js';
import { type MarkerSettings, markerRules, ownMarkers, shapeVertices, takesMarkers } from './markers.js';

/** Characters of <text> content. usvg shapes every glyph into paths while parsing, worse than linearly. */
export const MAX_SVG_TEXT_CHARS = 10_000;
/** Element nesting depth; drawings stay far below it (roxmltree itself stops at 1024). */
export const MAX_SVG_DEPTH = 256;
/** Elements drawn once every `<use>` is expanded (usvg's own stop is 1,000,000: minutes of work). */
export const MAX_SVG_ELEMENTS = 50_000;
/**
 * Filter reads in all: output pixels x reads per pixel of each primitive x the share of the canvas each
 * filtered element covers. ~1.3-1.7 s of CPU here; one blur over a whole 1200x1200 image is 0.9e8, over
 * 2000x2000 2.6e8 (4.4 s: refused, a lower maxEdge renders it). The fuzzer's 1,240-octave noise on a 64x64
 * canvas (1.7e8, 1.1 s of CPU, over 10 s wall at load ~14) is refused.
 */
export const MAX_FILTER_READS = 1e8;
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

/** The filter reads the SVG's filters will do; refuses more than `MAX_FILTER_READS`. */
function assertFilterBounds(svg: string, size: SvgSize, scale: number): number {
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

export function refuse(problem: string, details: Record<string, unknown>): never {
  throw new MediaError(
    'E_TOO_COMPLEX',
    `The SVG would take too long to render: ${problem}. Simplify it, or render it in a browser and send the PNG.`,
    { format: 'SVG', ...details },
  );
}

/** Numbers in an attribute value; anything unparseable counts as infinite, so it is refused rather than guessed. */
export function numbers(value: string): number[] {
  if (value.trim() === '') return [];
  return value
    .trim()
    .split(/[\s,]+/)
    .map((token) => {
      const n = Math.abs(Number(token));
      return Number.isFinite(n) ? n : Infinity;
    });
}

export function formatNumber(n: number): string {
  return Number.isFinite(n) && n < 1e9 ? String(Math.round(n)) : n.toExponential(1);
}

interface Subtree {
  elements: number;
  /** Characters of text content directly in it (whitespace runs count one). */
  characters: number;
  /** `<image>` elements with `data:` content in it. */
  images: number;
  /** Vertices of the shapes in it (see `shapeVertices`). */
  vertices: number;
  /** Ids that `<use>` elements inside it (itself included) refer to, once per use. */
  uses: string[];
  /** Markers its shapes are drawn with: the marker's id and how many copies of it. */
  marks: Array<{ marker: string; copies: number }>;
  /** `<use>` elements drawn with markers: each shape in what they refer to takes them. */
  markedUses: Array<{ use: string; markers: string[] }>;
}

interface Drawn {
  elements: number;
  characters: number;
  images: number;
  vertices: number;
  /** Marker copies among the elements. */
  markers: number;
}

const NOTHING: Drawn = { elements: 0, characters: 0, images: 0, vertices: 0, markers: 0 };

/**
 * The deepest element nesting, and how many elements, text characters and embedded images are drawn once every `<use>` is
 * replaced by what it refers to (transitively; a reference cycle counts nothing, as usvg skips it): usvg lays
 * out a used text again for each use. Markers count the same way: each copy of a marker is its content, a
 * group and a clip path, drawn once per vertex it marks (svg-markers.ts). Uses and markers in <defs> are counted
 * as if drawn: an overestimate bounded by the file's size.
 */
export function elementFacts(svg: string): { depth: number } & Drawn {
  const root = subtree(0, 0, 0);
  const byId = new Map<string, Subtree[]>();
  const markerIds = new Set<string>();
  const rules = markerRules(svg);
  const open: Array<{ id: string | undefined; text: boolean; markers: MarkerSettings; subtree: Subtree }> = [
    { id: undefined, text: false, markers: {}, subtree: root },
  ];
  let deepest = 0;
  const close = () => {
    const done = open.pop();
    const parent = open[open.length - 1];
    if (!done || !parent) return;
    // Ids are not always unique (usvg resolves a duplicate to the last one): each is kept, the largest counts.
    if (done.id !== undefined) {
      const same = byId.get(done.id);
      if (same) same.push(done.subtree);
      else byId.set(done.id, [done.subtree]);
    }
    parent.subtree.elements += done.subtree.elements;
    parent.subtree.characters += done.subtree.characters;
    parent.subtree.images += done.subtree.images;
    parent.subtree.vertices += done.subtree.vertices;
    for (const id of done.subtree.uses) parent.subtree.uses.push(id);
    for (const mark of done.subtree.marks) parent.subtree.marks.push(mark);
    for (const use of done.subtree.markedUses) parent.subtree.markedUses.push(use);
  };
  let contentStart = 0;
  for (const tag of svg.matchAll(
    /<!--[\s\S]*?-->|<!\[CDATA\[([\s\S]*?)\]\]>|<[!?][^>]*>|<(\/?)([^\s/>]*)([^>]*?)(\/?)>/g,
  )) {
    const current = open[open.length - 1] as (typeof open)[number];
    if (current.text) {
      current.subtree.characters += svg.slice(contentStart, tag.index).replace(/\s+/g, ' ').length;
      if (tag[1] !== undefined) current.subtree.characters += tag[1].replace(/\s+/g, ' ').length;
    }
    contentStart = tag.index + tag[0].length;
    if (tag[0].startsWith('<!') || tag[0].startsWith('<?')) continue;
    if (tag[2] === '/') {
      if (open.length > 1) close();
      continue;
    }
    const name = tag[3] ?? '';
    const attributes = tag[4] ?? '';
    const id = /(?:^|\s)id\s*=\s*["']([^"']*)["']/.exec(attributes)?.[1];
    const href = /(?:^|\s)(?:xlink:)?href\s*=\s*["']\s*#([^"']*)["']/.exec(attributes)?.[1];
    const isUse = /^(?:\w+:)?use$/.test(name);
    if (id !== undefined && /^(?:\w+:)?marker$/.test(name)) markerIds.add(id);
    const markers = { ...current.markers, ...ownMarkers(name, attributes, rules) };
    const drawnWith = [markers.start, markers.mid, markers.end].filter(
      (marker): marker is string => marker !== undefined && marker !== '',
    );
    const element = subtree(
      1,
      /^(?:\w+:)?image$/.test(name) && /href\s*=\s*["']\s*data:/.test(attributes) ? 1 : 0,
      takesMarkers(name) ? shapeVertices(name, attributes) : 0,
    );
    if (isUse && href !== undefined) {
      element.uses.push(href);
      if (drawnWith.length > 0) element.markedUses.push({ use: href, markers: drawnWith });
    }
    if (takesMarkers(name) && element.vertices > 0) {
      // marker-start and marker-end draw one copy each, marker-mid one on every vertex (an upper bound).
      for (const kind of ['start', 'mid', 'end'] as const) {
        const marker = markers[kind];
        if (marker) element.marks.push({ marker, copies: kind === 'mid' ? element.vertices : 1 });
      }
    }
    open.push({ id, text: current.text || /^(?:\w+:)?text$/.test(name), markers, subtree: element });
    deepest = Math.max(deepest, open.length - 1);
    if (tag[5] === '/') close();
    if (deepest > MAX_SVG_DEPTH) return { depth: deepest, ...NOTHING };
  }
  while (open.length > 1) close();

  const expanded = new Map<string, Drawn>();
  const visiting = new Set<string>();
  const drawn = (subtree: Subtree): Drawn => {
    const { elements, characters, images, vertices } = subtree;
    const total = { elements, characters, images, vertices, markers: 0 };
    const add = (used: Drawn, times: number, extra: number) => {
      total.elements += times * (used.elements + extra);
      total.characters += times * used.characters;
      total.images += times * used.images;
      total.vertices += times * used.vertices;
      total.markers += times * (used.markers + extra);
    };
    for (const id of subtree.uses) add(expand(id), 1, 0);
    // usvg draws a marker only when the id names a <marker>; each copy adds a group and its clip path.
    const mark = (marker: string, copies: number) => {
      if (markerIds.has(marker)) add(expand(marker), copies, 1);
    };
    for (const { marker, copies } of subtree.marks) mark(marker, copies);
    for (const { use, markers } of subtree.markedUses) for (const marker of markers) mark(marker, expand(use).vertices);
    return total;
  };
  const expand = (id: string): Drawn => {
    const known = expanded.get(id);
    if (known !== undefined) return known;
    const subtrees = byId.get(id);
    if (!subtrees || visiting.has(id) || visiting.size > MAX_SVG_DEPTH) return NOTHING;
    visiting.add(id);
    const total = { ...NOTHING };
    for (const subtree of subtrees) {
      const one = drawn(subtree);
      for (const key of Object.keys(total) as Array<keyof Drawn>) total[key] = Math.max(total[key], one[key]);
    }
    visiting.delete(id);
    expanded.set(id, total);
    return total;
  };
  return { depth: deepest, ...drawn(root) };
}

function subtree(elements: number, images: number, vertices: number): Subtree {
  return { elements, characters: 0, images, vertices, uses: [], marks: [], markedUses: [] };
}
