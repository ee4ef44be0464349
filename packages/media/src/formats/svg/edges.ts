// Edge work: what drawing a path's outline costs tiny-skia, beyond the area it paints (paint.ts). A fill
// walks every edge down every output row it crosses; a stroke is first turned into an outline (two sides per
// segment, plus joins and caps) and filled the same way, or, when it is at most a pixel wide, drawn as
// anti-aliased lines pixel by pixel along their length. So a single path of 100,000 long segments paints
// no more than its box, but its edges run 80 million pixels: 15.9 s of CPU.
//
// One measure serves all three: the length of each segment's control polygon in output pixels (an upper
// bound of a curve's length, and of the rows it crosses), clipped to the rows of the canvas, with its ends
// clamped to the canvas's columns as tiny-skia's clipper does, plus a fixed cost per segment.

/** User units to output pixels. */
export type PixelMatrix = readonly [number, number, number, number, number, number];

/** A path's outline, measured in output pixels. */
export interface PathEdges {
  /** Segments, closing edges included (a curve counts as one). */
  segments: number;
  /** Output pixels along the segments' control polygons, within the canvas. */
  length: number;
  /**
   * Pairs of segments that may cross (see `crossingPairs`): a filled outline is kept sorted by x on every
   * row, and each crossing is one more swap, so this grows with the square of the segments packed together.
   */
  pairs: number;
  /** Cell pieces the pairs were counted from (at most `maxPieces`). */
  pieces: number;
}

/** Side of the cells pairs are counted in, in output pixels (at least; a huge canvas gets larger cells). */
const CELL = 16;
/** Cells per side at most. */
const MAX_CELLS = 256;
/** Per cell: pieces of segments in it, and the rows they cover in cell heights. Reused; reset through `touched`. */
let pieces = new Float64Array(0);
let rows = new Float64Array(0);
const touched: number[] = [];

/**
 * Segments and their length in output pixels of usvg's path data (absolute `M`, `L`, `Q`, `C`, `Z`, numbers
 * separated by spaces), on a `width`x`height` canvas widened by `margin` pixels each side (half a stroke's
 * width). `closeOpen` adds the edge that closes each unclosed subpath, as a fill draws it. One pass over the
 * text, no allocation per number: it is run on paths of megabytes. Pairs are counted from the first
 * `maxPieces` cell pieces only (a piece is at most a cell long; past the budget the length decides).
 */
export function pathEdges(
  d: string,
  [a, b, c, dd, e, f]: PixelMatrix,
  width: number,
  height: number,
  margin: number,
  closeOpen: boolean,
  maxPieces = Number.POSITIVE_INFINITY,
): PathEdges {
  // A stroke wider than the canvas covers it either way (and keeps the grid small).
  margin = Math.min(margin, Math.max(width, height));
  const cell = Math.max(CELL, Math.max(width, height) / MAX_CELLS);
  const columns = Math.max(1, Math.ceil((width + 2 * margin) / cell));
  const gridRows = Math.max(1, Math.ceil((height + 2 * margin) / cell));
  if (pieces.length < columns * gridRows) {
    pieces = new Float64Array(columns * gridRows);
    rows = new Float64Array(columns * gridRows);
  }
  const x0 = -margin;
  const x1 = width + margin;
  const y0 = -margin;
  const y1 = height + margin;
  let used = 0;
  /** One straight edge from (px, py) to (qx, qy), output pixels: clipped to the rows, clamped to the columns. */
  const edge = (px: number, py: number, qx: number, qy: number): number => {
    if (!(Number.isFinite(px) && Number.isFinite(py) && Number.isFinite(qx) && Number.isFinite(qy)))
      return Number.isNaN(px + py + qx + qy) ? 0 : Math.hypot(x1 - x0, y1 - y0);
    if ((py < y0 && qy < y0) || (py > y1 && qy > y1)) return 0;
    if (py !== qy) {
      const dx = (qx - px) / (qy - py);
      if (py < y0) [px, py] = [px + (y0 - py) * dx, y0];
      else if (py > y1) [px, py] = [px + (y1 - py) * dx, y1];
      if (qy < y0) [qx, qy] = [qx + (y0 - qy) * dx, y0];
      else if (qy > y1) [qx, qy] = [qx + (y1 - qy) * dx, y1];
    }
    // Beside the canvas, an edge is walked down its side as a vertical line: rows to walk, nothing to cross.
    const beside = (px < x0 && qx < x0) || (px > x1 && qx > x1);
    const clampX = (x: number) => Math.min(x1, Math.max(x0, x));
    px = clampX(px);
    qx = clampX(qx);
    const span = Math.hypot(qx - px, qy - py);
    if (beside) return span;
    // Cut into pieces no longer than a cell; each counts in the cell of its middle, with the rows it covers.
    const count = Math.min(2 * (columns + gridRows), Math.max(1, Math.ceil(span / cell)));
    if (used + count > maxPieces) return span;
    used += count;
    const stepX = (qx - px) / count;
    const stepY = (qy - py) / count;
    const cover = Math.abs(stepY) / cell;
    for (let i = 0; i < count; i++) {
      const column = Math.min(columns - 1, Math.max(0, Math.floor((px - x0 + (i + 0.5) * stepX) / cell)));
      const row = Math.min(gridRows - 1, Math.max(0, Math.floor((py - y0 + (i + 0.5) * stepY) / cell)));
      const index = row * columns + column;
      if (pieces[index] === 0) touched.push(index);
      pieces[index] = (pieces[index] as number) + 1;
      rows[index] = (rows[index] as number) + cover;
    }
    return span;
  };

  let segments = 0;
  let length = 0;
  // Current point, subpath start, and the points of the segment being read (output pixels).
  let [cx, cy, sx, sy] = [0, 0, 0, 0];
  let open = false;
  const points: number[] = [];
  let command = '';
  let wanted = 0;
  let pendingX = 0;
  const close = () => {
    if (open && (cx !== sx || cy !== sy)) {
      segments++;
      length += edge(cx, cy, sx, sy);
    }
    open = false;
    [cx, cy] = [sx, sy];
  };
  const text = d;
  const end = text.length;
  let at = 0;
  while (at < end) {
    const code = text.charCodeAt(at);
    if (code === 32 || code === 44 || code === 10 || code === 13 || code === 9) {
      at++;
      continue;
    }
    if ((code >= 65 && code <= 90) || (code >= 97 && code <= 122)) {
      const letter = text[at] as string;
      at++;
      if (letter === 'e' || letter === 'E') continue; // not reached: exponents are read with their number
      command = letter.toUpperCase();
      if (command === 'Z') {
        close();
        command = '';
        continue;
      }
      wanted = command === 'C' ? 6 : command === 'Q' ? 4 : command === 'M' || command === 'L' ? 2 : 0;
      points.length = 0;
      continue;
    }
    // A number: up to the next separator or command letter (exponents included).
    let stop = at + 1;
    while (stop < end) {
      const next = text.charCodeAt(stop);
      if (next === 32 || next === 44 || next === 10 || next === 13 || next === 9) break;
      if (((next >= 65 && next <= 90) || (next >= 97 && next <= 122)) && next !== 101 && next !== 69) break;
      stop++;
    }
    const value = Number(text.slice(at, stop));
    at = stop;
    if (wanted === 0) continue;
    if (points.length % 2 === 0) {
      pendingX = value;
      points.push(value);
      continue;
    }
    // A point: to output pixels.
    const x = a * pendingX + c * value + e;
    const y = b * pendingX + dd * value + f;
    points[points.length - 1] = x;
    points.push(y);
    if (points.length < wanted) continue;
    if (command === 'M') {
      if (closeOpen) close();
      [cx, cy, sx, sy] = [x, y, x, y];
      open = false;
      // Numbers after a moveto's first pair are linetos.
      command = 'L';
    } else {
      let px = cx;
      let py = cy;
      for (let i = 0; i + 1 < points.length; i += 2) {
        const qx = points[i] as number;
        const qy = points[i + 1] as number;
        length += edge(px, py, qx, qy);
        px = qx;
        py = qy;
      }
      segments++;
      open = true;
      [cx, cy] = [x, y];
    }
    points.length = 0;
  }
  if (closeOpen) close();
  return { segments, length, pairs: crossingPairs(), pieces: used };
}

/**
 * Pairs of pieces in the same cell that share rows, summed over the cells (and the cells reset): a piece
 * covering h of a cell's height shares rows with about h of the others, so n pieces covering H heights in
 * all give about n * H / 2 pairs. Random segments across a 1568-pixel canvas give 0.09 N^2 (they cross
 * 0.115 N^2 times); an outline that passes through each cell once gives about one pair per piece.
 */
function crossingPairs(): number {
  let pairs = 0;
  for (const index of touched) {
    pairs += ((pieces[index] as number) * (rows[index] as number)) / 2;
    pieces[index] = 0;
    rows[index] = 0;
  }
  touched.length = 0;
  return pairs;
}
