// Painted area: what resvg's rasteriser (tiny-skia) will fill, judged from usvg's resolved tree (`Resvg#toString`:
// every `<use>` expanded, text turned into glyph paths, shapes as absolute path data, transforms as matrices)
// before a pixel is drawn. Rasterising costs about the area each path covers, so a few hundred shapes that each
// cover the whole canvas cost more than 50,000 small ones, plus the length of each path's outline
// (edges.ts), so one path of 100,000 segments across the canvas costs more than either.
//
// Weights, in CPU time per pixel of a path's box on the 2-core development machine (`process.cpuUsage`, load
// average ~19; 1,000 full-canvas elements rendered at 1568x1568, minus an empty SVG's 0.2 s): a translucent
// or gradient fill 13-16 ns (40 s for the 1,000), an opaque colour 1.3 ns (3.1 s), a rectangle's outline 1.5 ns
// per pixel of its box (3.9 s), a group drawn into its own layer (opacity, clip, mask, filter, blend) 65 ns
// (161 s). One unit here is one translucent pixel.
import { attribute } from './attribute.js';
import { formatNumber, numbers, refuse } from './refuse.js';
import { pathEdges } from './edges.js';
import { sourcePathSegments } from './source-segments.js';

/**
 * Work the renderer may do, in translucent-pixel units (~16 ns each here): painted pixels plus the filter reads
 * (`MAX_FILTER_READS` counts those at a similar 13-17 ns). 1e8 is ~1.6 s of CPU at load ~19: 40 translucent
 * layers over a whole 1568x1568 image, 400 opaque ones.
 */
export const MAX_RENDER_WORK = 1e8;
/** An opaque colour is filled by the fast path: a tenth of a translucent pixel. */
const OPAQUE_WEIGHT = 0.1;
/** Each reason a group gets its own layer (opacity, clip-path, mask, filter, blend mode) allocates, fills and composites one. */
const LAYER_WEIGHT = 4;
// Edges (edges.ts), weighed on the same machine against 40 translucent full-canvas rectangles at 1568x1568
// (9.8e7 units: 0.81 s of CPU at load ~10, so ~8.2 ns a unit there), warm renders, best of two:
// - a pixel of outline: 3,000 random segments across the canvas (817 px long on average) as a 1-px stroke
//   (drawn as hairlines) 0.40 s, 0.164 us a pixel; 10,000: 1.54 s; 10-px wide, outlined and filled, 0.29 s,
//   0.12 us (round joins 0.34 s); filled, even-odd 0.39 s, nonzero 0.12 s; as cubic curves 0.83 s, 0.11 us a
//   pixel of their control polygons. 20 units a pixel.
// - a segment: 100,000 segments of 13 px as a hairline, 0.29 s, 2.9 us each, 2.1 of them for its pixels;
//   a circle of 100,000 sub-pixel segments 0.04 s stroked, 0.09 s 3 px wide, 0.007 s filled. 100 units.
// - a join or cap of a stroke wider than a pixel: round joins at width 160 added 50 us a segment, ~2 pixels of
//   outline per pixel of width. Counted as 2 widths of outline per segment.
// - a pair of crossing segments in one filled outline: 100,000 segments of 13 px in a 25-px square took 13.5 s
//   filled (10,000: 0.08 s; 30,000: 0.76 s), ~12 ns for each of their ~1.15e9 crossings; 10,000 across the
//   canvas 10 px wide ~0.9 s more than 10/3 of 3,000 (5.4e7 pairs of outline sides, ~17 ns). 3 units a pair of
//   segments `pathEdges` finds sharing rows, 4 pairs for each in a stroke's outline (two sides a segment).
const EDGE_WEIGHT = 20;
const SEGMENT_WEIGHT = 100;
const PAIR_WEIGHT = 3;
/**
 * Cell pieces (edges.ts) the pairs are counted from, in all. A segment is cut into one piece per 16 pixels
 * (a curve's control polygon into at least three), and weighs 100 units or more plus 320 per 16 pixels, so an
 * SVG with more pieces is refused on its segments and pixels alone: counting stops there, and the check stays
 * linear in the text however long its outlines are.
 */
const MAX_PIECES = (3 * MAX_RENDER_WORK) / SEGMENT_WEIGHT;

type Matrix = readonly [number, number, number, number, number, number];
type Box = { x0: number; y0: number; x1: number; y1: number };
const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

interface Frame {
  matrix: Matrix;
  /** Layers this group is drawn into (0 for a plain group). */
  layers: number;
  /** The canvas part its content covers, in root user units. */
  box: Box | undefined;
}

/** What rendering the tree will paint, at `pixelScale` output pixels per unit of its width and height. */
export interface PaintWork {
  /** Painting and layers, in translucent-pixel units. */
  work: number;
  /** Drawing the paths' outlines (edges.ts), in the same units. */
  edgeWork: number;
  /** Output pixels covered by paths and images, overlaps counted each time. */
  painted: number;
  /** Groups' layers. */
  layers: number;
  /** Path segments drawn, dashes counted as segments. */
  segments: number;
  /** Output pixels along their outlines (see edges.ts). */
  edgePixels: number;
  /** The output canvas, in pixels. */
  width: number;
  height: number;
}

/**
 * Refuses, before usvg parses it, an SVG whose source alone has more path segments than the render budget
 * can draw (each weighs `SEGMENT_WEIGHT` at any size): parsing such a file costs seconds and ~27 bytes of
 * memory per source byte, more than a Worker has.
 */
export function assertSvgSourceSegments(svg: string): void {
  const segments = sourcePathSegments(svg);
  if (!(segments * SEGMENT_WEIGHT > MAX_RENDER_WORK)) return;
  refuse(
    `its path data has ${formatNumber(segments)} segments, more than the ${formatNumber(MAX_RENDER_WORK / SEGMENT_WEIGHT)} that can be drawn in the render budget at any size; paths with fewer segments draw faster`,
    { pathSegments: segments },
  );
}

/**
 * Refuses an SVG whose painting, plus its filters' reads (`filterReads`, from `assertSvgBounds`), would take
 * too long at the size it is rendered: `pixelScale` output pixels per unit of the tree's width and height.
 */
export function assertSvgPaintBounds(tree: string, pixelScale: number, filterReads: number): void {
  const paint = svgPaintWork(tree, pixelScale);
  const total = paint.work + paint.edgeWork + filterReads;
  if (total <= MAX_RENDER_WORK) return;
  const { painted, layers, segments, edgePixels, width, height } = paint;
  const canvas = Math.max(1, width * height);
  refuse(
    `it paints about ${formatNumber(painted / canvas)} times the area of its ${formatNumber(width)}x${formatNumber(height)}-pixel canvas${layers > 0 ? ` and draws ${formatNumber(layers)} group layer${layers === 1 ? '' : 's'}` : ''}, outlining ${formatNumber(segments)} path segments ${formatNumber(edgePixels)} pixels long in all${filterReads > 0 ? `, through filters reading ${formatNumber(filterReads)} pixels` : ''}, about ${formatNumber(total)} units of render work (at most ${formatNumber(MAX_RENDER_WORK)}); a lower maxEdge renders fewer pixels and shorter edges, and paths with fewer segments draw faster`,
    { renderWork: total, paintedPixels: painted, layers, pathSegments: segments, edgePixels },
  );
}

export function svgPaintWork(tree: string, pixelScale: number): PaintWork {
  const root = /<svg\b([^>]*)>/.exec(tree)?.[1] ?? '';
  const [vx = 0, vy = 0, vw = 0, vh = 0] = numbers(attribute(root, 'viewBox'));
  const width = pixelScale * (numbers(attribute(root, 'width'))[0] ?? vw);
  const height = pixelScale * (numbers(attribute(root, 'height'))[0] ?? vh);
  const result: PaintWork = { work: 0, edgeWork: 0, painted: 0, layers: 0, segments: 0, edgePixels: 0, width, height };
  if (!(vw > 0 && vh > 0)) return result;
  const canvas: Box = { x0: vx, y0: vy, x1: vx + vw, y1: vy + vh };
  const pixelsPerArea = (width / vw) * (height / vh);
  const toPixels: Matrix = [width / vw, 0, 0, height / vh, (-vx * width) / vw, (-vy * height) / vh];

  const budget = { pieces: MAX_PIECES };
  const stack: Frame[] = [{ matrix: IDENTITY, layers: 0, box: undefined }];
  let defsDepth = 0;
  const add = (frame: Frame | undefined, box: Box | undefined) => {
    if (frame && box) frame.box = frame.box ? union(frame.box, box) : box;
  };
  for (const [, closing, name = '', attributes = '', selfClosing] of tree.matchAll(/<(\/?)([\w:-]+)([^>]*?)(\/?)>/g)) {
    // Resources (clip paths, masks, patterns, markers' content) are drawn where they are used: counted there.
    if (name === 'defs') {
      if (!selfClosing) defsDepth += closing ? -1 : 1;
      continue;
    }
    if (defsDepth > 0 || name === 'svg') continue;
    const parent = stack[stack.length - 1] as Frame;
    if (name === 'g') {
      if (closing) {
        if (stack.length === 1) continue;
        const group = stack.pop() as Frame;
        if (group.box && group.layers > 0) {
          result.work += boxArea(group.box) * pixelsPerArea * LAYER_WEIGHT * group.layers;
          result.layers += group.layers;
        }
        add(stack[stack.length - 1], group.box);
      } else if (!selfClosing) {
        stack.push({
          matrix: multiply(parent.matrix, transform(attributes)),
          layers: layerCount(attributes),
          box: undefined,
        });
      }
      continue;
    }
    if (closing || (name !== 'path' && name !== 'image')) continue;
    const matrix = multiply(parent.matrix, transform(attributes));
    if (name === 'path')
      result.edgeWork += edgeWork(attributes, multiply(toPixels, matrix), width, height, result, budget);
    const local = name === 'path' ? pathBox(attributes) : imageBox(attributes);
    const box = local && clip(transformBox(matrix, local), canvas);
    if (!box) continue;
    add(parent, box);
    const area = boxArea(box) * pixelsPerArea;
    result.painted += area;
    result.work += area * paintWeight(name, attributes);
  }
  return result;
}

/**
 * The work of drawing a path's outline, in translucent-pixel units (weights above): its fill's edges, and its
 * stroke's, each dash a segment of its own. Adds the segments and pixels to `totals`.
 */
function edgeWork(
  attributes: string,
  matrix: Matrix,
  width: number,
  height: number,
  totals: { segments: number; edgePixels: number },
  budget: { pieces: number },
): number {
  const fill = attribute(attributes, 'fill');
  const stroke = attribute(attributes, 'stroke');
  const filled = fill !== 'none';
  const stroked = stroke !== '' && stroke !== 'none';
  if (!filled && !stroked) return 0;
  // usvg keeps a stroke's width in user units: in pixels it is scaled by the matrix (by its area's square root).
  const scale = Math.sqrt(Math.abs(matrix[0] * matrix[3] - matrix[1] * matrix[2]));
  const strokeWidth = stroked ? (numbers(attribute(attributes, 'stroke-width'))[0] ?? 1) * scale : 0;
  const {
    segments,
    length,
    pairs,
    pieces: used,
  } = pathEdges(attribute(attributes, 'd'), matrix, width, height, strokeWidth / 2, filled, budget.pieces);
  budget.pieces -= used;
  let work = 0;
  if (filled) {
    work += EDGE_WEIGHT * length + SEGMENT_WEIGHT * segments + PAIR_WEIGHT * pairs;
    totals.segments += segments;
    totals.edgePixels += length;
  }
  if (stroked) {
    const pattern = numbers(attribute(attributes, 'stroke-dasharray'));
    const period = pattern.reduce((sum, n) => sum + n, 0) * scale;
    const dashes = period > 0 ? (length / period) * Math.max(1, pattern.length / 2) : 0;
    const pieces = segments + dashes;
    // At most a pixel wide, tiny-skia draws anti-aliased lines (no outline to sort); wider, an outline filled.
    const outline = strokeWidth <= 1 ? 0 : 4 * pairs;
    // Joins and caps, for an outline; clipped to the canvas like everything else.
    const joins = strokeWidth <= 1 ? 0 : 2 * Math.min(strokeWidth, width + height) * pieces;
    work += EDGE_WEIGHT * (length + joins) + SEGMENT_WEIGHT * pieces + PAIR_WEIGHT * outline;
    totals.segments += pieces;
    totals.edgePixels += length;
  }
  return work;
}

/** Why a group is drawn into a layer of its own; each reason is one layer's work. */
function layerCount(attributes: string): number {
  const opacity = numbers(attribute(attributes, 'opacity'))[0];
  let count = opacity !== undefined && opacity < 1 ? 1 : 0;
  for (const name of ['clip-path', 'mask', 'filter']) if (attribute(attributes, name) !== '') count++;
  if (/mix-blend-mode\s*:\s*(?!normal)|isolation\s*:\s*isolate/.test(attributes)) count++;
  return count;
}

/** Translucent, gradient and pattern paint blend every pixel; one opaque colour takes the fast path. */
function paintWeight(name: string, attributes: string): number {
  if (name === 'image') return 1;
  const blended = (paint: string, opacity: string) => {
    if (paint === 'none') return false;
    const alpha = numbers(opacity)[0];
    return paint.startsWith('url(') || (alpha !== undefined && alpha < 1);
  };
  return blended(attribute(attributes, 'fill'), attribute(attributes, 'fill-opacity')) ||
    blended(attribute(attributes, 'stroke'), attribute(attributes, 'stroke-opacity'))
    ? 1
    : OPAQUE_WEIGHT;
}

/** A path's box from its points (usvg writes absolute M/L/C/Z: a curve lies inside its control points), widened by its stroke. */
function pathBox(attributes: string): Box | undefined {
  const values =
    attribute(attributes, 'd')
      .match(/-?[\d.]+(?:e[-+]?\d+)?/gi)
      ?.map(Number) ?? [];
  if (values.length < 2) return undefined;
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let i = 0; i + 1 < values.length; i += 2) {
    const x = values[i] as number;
    const y = values[i + 1] as number;
    x0 = Math.min(x0, x);
    y0 = Math.min(y0, y);
    x1 = Math.max(x1, x);
    y1 = Math.max(y1, y);
  }
  const stroke = attribute(attributes, 'stroke');
  const half = stroke !== '' && stroke !== 'none' ? (numbers(attribute(attributes, 'stroke-width'))[0] ?? 1) / 2 : 0;
  return { x0: x0 - half, y0: y0 - half, x1: x1 + half, y1: y1 + half };
}

function imageBox(attributes: string): Box | undefined {
  const value = (name: string) => numbers(attribute(attributes, name))[0];
  const width = value('width');
  const height = value('height');
  if (width === undefined || height === undefined) return undefined;
  const x = value('x') ?? 0;
  const y = value('y') ?? 0;
  return { x0: x, y0: y, x1: x + width, y1: y + height };
}

/** usvg writes transforms as `matrix(a b c d e f)`. */
function transform(attributes: string): Matrix {
  const value = attribute(attributes, 'transform');
  if (!value.startsWith('matrix(')) return IDENTITY;
  const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = (value.match(/-?[\d.]+(?:e[-+]?\d+)?/gi) ?? []).map(Number);
  return [a, b, c, d, e, f];
}

function multiply([a, b, c, d, e, f]: Matrix, [g, h, i, j, k, l]: Matrix): Matrix {
  return [a * g + c * h, b * g + d * h, a * i + c * j, b * i + d * j, a * k + c * l + e, b * k + d * l + f];
}

function transformBox([a, b, c, d, e, f]: Matrix, { x0, y0, x1, y1 }: Box): Box {
  const xs = [x0, x1].flatMap((x) => [y0, y1].map((y) => a * x + c * y + e));
  const ys = [x0, x1].flatMap((x) => [y0, y1].map((y) => b * x + d * y + f));
  return { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
}

/** The part of `box` on the canvas; NaN (from unparseable numbers) counts as the whole canvas. */
function clip(box: Box, canvas: Box): Box | undefined {
  const clipped = {
    x0: Number.isNaN(box.x0) ? canvas.x0 : Math.max(box.x0, canvas.x0),
    y0: Number.isNaN(box.y0) ? canvas.y0 : Math.max(box.y0, canvas.y0),
    x1: Number.isNaN(box.x1) ? canvas.x1 : Math.min(box.x1, canvas.x1),
    y1: Number.isNaN(box.y1) ? canvas.y1 : Math.min(box.y1, canvas.y1),
  };
  return clipped.x1 > clipped.x0 && clipped.y1 > clipped.y0 ? clipped : undefined;
}

function union(a: Box, b: Box): Box {
  return { x0: Math.min(a.x0, b.x0), y0: Math.min(a.y0, b.y0), x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1) };
}

function boxArea({ x0, y0, x1, y1 }: Box): number {
  return (x1 - x0) * (y1 - y0);
}
