import { describe, expect, it } from 'vitest';
import { pathEdges } from './edges.js';
import { svgPaintWork } from './paint.js';

// Trees in the form usvg writes them (`Resvg#toString`): absolute path data, matrices, resources in <defs>.
const tree = (body: string) =>
  `<svg width="100" height="100" viewBox="0 0 100 100" xmlns="http://www.w3.org/2000/svg">${body}</svg>`;
const square = (attributes: string) => `<path ${attributes} d="M 0 0 L 100 0 L 100 100 L 0 100 Z"/>`;

describe('svgPaintWork', () => {
  it('counts each path by its box in output pixels: translucent and gradient paint in full, an opaque colour at a tenth', () => {
    expect(svgPaintWork(tree(square('fill="#ff0000" fill-opacity="0.5" stroke="none"')), 2)).toMatchObject({
      work: 40_000,
      painted: 40_000,
      width: 200,
      height: 200,
    });
    expect(svgPaintWork(tree(square('fill="url(#g)" stroke="none"')), 1).work).toBe(10_000);
    expect(svgPaintWork(tree(square('fill="#ff0000" stroke="none"')), 1).work).toBeCloseTo(1_000);
    expect(svgPaintWork(tree(square('fill="none" stroke="none"')), 1).work).toBeCloseTo(1_000);
  });

  it('applies transforms, widens by the stroke, and clips to the canvas', () => {
    const scaled = `<g transform="matrix(0.5 0 0 0.5 0 0)">${square('fill="url(#g)" stroke="none"')}</g>`;
    expect(svgPaintWork(tree(scaled), 1).painted).toBe(2_500);
    const offCanvas = `<g transform="matrix(1 0 0 1 150 0)">${square('fill="url(#g)"')}</g>`;
    expect(svgPaintWork(tree(offCanvas), 1).painted).toBe(0);
    const huge = `<g transform="matrix(1000 0 0 1000 -50 -50)">${square('fill="url(#g)"')}</g>`;
    expect(svgPaintWork(tree(huge), 1).painted).toBe(10_000);
    const stroked = '<path fill="none" stroke="#000000" stroke-width="10" d="M 20 20 L 80 20 L 80 80 Z"/>';
    expect(svgPaintWork(tree(stroked), 1).painted).toBe(70 * 70);
  });

  it('counts a layer per reason a group is isolated, over the box of its content', () => {
    const small = '<path fill="#000000" d="M 0 0 L 10 0 L 10 10 Z"/>';
    const layered = svgPaintWork(tree(`<g opacity="0.5" mask="url(#m)">${small}</g>`), 1);
    expect(layered.layers).toBe(2);
    expect(layered.work).toBeCloseTo(100 * 0.1 + 2 * 4 * 100);
    expect(svgPaintWork(tree(`<g opacity="1">${small}</g>`), 1).layers).toBe(0);
  });

  it('leaves resources in <defs> to where they are used', () => {
    const defs = `<defs><clipPath id="c">${square('fill="url(#g)"')}</clipPath></defs>`;
    expect(svgPaintWork(tree(defs), 1).painted).toBe(0);
  });
});

describe('pathEdges: the outline tiny-skia walks, in output pixels', () => {
  it('measures segments along their control polygons, closing a fill', () => {
    expect(pathEdges('M 0 0 L 100 0 L 100 100', [1, 0, 0, 1, 0, 0], 100, 100, 0, false)).toMatchObject({
      segments: 2,
      length: 200,
    });
    const closed = pathEdges('M 0 0 L 100 0 L 100 100', [1, 0, 0, 1, 0, 0], 100, 100, 0, true);
    expect(closed.segments).toBe(3);
    expect(closed.length).toBeCloseTo(200 + 100 * Math.SQRT2);
    // A cubic counts its control polygon, a quadratic too; Z closes back to the subpath's start.
    expect(pathEdges('M 0 0 C 0 10 10 10 10 0 Z', [1, 0, 0, 1, 0, 0], 100, 100, 0, false)).toMatchObject({
      segments: 2,
      length: 40,
    });
    expect(pathEdges('M 0 0 Q 0 10 10 10', [2, 0, 0, 2, 0, 0], 100, 100, 0, false).length).toBe(40);
  });

  it('clips to the canvas rows and clamps to its columns, widened by a margin', () => {
    const tall = pathEdges('M 50 -100 L 50 200', [1, 0, 0, 1, 0, 0], 100, 100, 0, false);
    expect(tall.length).toBe(100);
    expect(pathEdges('M 50 -100 L 50 200', [1, 0, 0, 1, 0, 0], 100, 100, 5, false).length).toBe(110);
    // Left of the canvas: tiny-skia's clipper still walks it down the left edge.
    expect(pathEdges('M -500 0 L -500 100', [1, 0, 0, 1, 0, 0], 100, 100, 0, false).length).toBe(100);
    expect(pathEdges('M -500 10 L 5000 10', [1, 0, 0, 1, 0, 0], 100, 100, 0, false).length).toBe(100);
    expect(pathEdges('M 0 -500 L 100 -500', [1, 0, 0, 1, 0, 0], 100, 100, 0, false).length).toBe(0);
    // Beside the canvas, edges are vertical lines on its side: they cross nothing.
    const zigzag = `M 500 0${' L 600 100 L 500 0'.repeat(1000)}`;
    expect(pathEdges(zigzag, [1, 0, 0, 1, 0, 0], 100, 100, 0, false)).toMatchObject({ length: 200_000, pairs: 0 });
  });

  it('counts pairs of segments sharing rows: about the crossings of random segments, about one a segment for an outline', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return (seed / 2 ** 31) * 400;
    };
    const points = Array.from({ length: 601 }, () => [random(), random()] as const);
    const d = `M ${points.map(([x, y]) => `${x} ${y}`).join(' L ')}`;
    // Crossings counted one pair at a time (segments sharing an end point do not count).
    let crossings = 0;
    const side = (a: readonly number[], b: readonly number[], c: readonly number[]) =>
      Math.sign((b[0]! - a[0]!) * (c[1]! - a[1]!) - (b[1]! - a[1]!) * (c[0]! - a[0]!));
    for (let i = 0; i + 1 < points.length; i++)
      for (let j = i + 2; j + 1 < points.length; j++) {
        const [p, q, r, s] = [points[i]!, points[i + 1]!, points[j]!, points[j + 1]!];
        if (side(p, q, r) * side(p, q, s) < 0 && side(r, s, p) * side(r, s, q) < 0) crossings++;
      }
    const { pairs } = pathEdges(d, [1, 0, 0, 1, 0, 0], 400, 400, 0, false);
    expect(crossings).toBeGreaterThan(30_000);
    expect(pairs).toBeGreaterThan(crossings / 2);
    expect(pairs).toBeLessThan(crossings * 2);
    const circle = Array.from({ length: 600 }, (_, i) => {
      const t = (2 * Math.PI * i) / 600;
      return `${200 + 150 * Math.cos(t)} ${200 + 150 * Math.sin(t)}`;
    });
    expect(pathEdges(`M ${circle.join(' L ')} Z`, [1, 0, 0, 1, 0, 0], 400, 400, 0, true).pairs).toBeLessThan(600);
  });

  it('reads a path of megabytes in one pass', () => {
    const d = `M 0 0${' L 1568 1568 L 0 0'.repeat(60_000)}`;
    expect(d.length).toBeGreaterThan(1_000_000);
    const edges = pathEdges(d, [1, 0, 0, 1, 0, 0], 1568, 1568, 0.5, false, 1_000);
    expect(edges.segments).toBe(120_000);
    expect(edges.length).toBeCloseTo(120_000 * 1568 * Math.SQRT2, -3);
    // Pairs are counted from the first 1,000 pieces (each diagonal is cut into 139): 7 diagonals.
    expect(edges.pieces).toBe(7 * 139);
  });
});

describe('svgPaintWork: outlines', () => {
  const line = (attributes: string) => `<path ${attributes} d="M 0 50 L 100 50"/>`;
  it('weighs a hairline by its pixels and segments, a wide stroke by its joins too, a fill and a stroke each', () => {
    expect(svgPaintWork(tree(line('fill="none" stroke="#000000"')), 1)).toMatchObject({
      edgeWork: 20 * 100 + 100,
      segments: 1,
      edgePixels: 100,
    });
    expect(svgPaintWork(tree(line('fill="none" stroke="#000000"')), 2).edgeWork).toBe(20 * (200 + 2 * 2) + 100);
    expect(svgPaintWork(tree(line('fill="none" stroke="#000000" stroke-width="10"')), 1).edgeWork).toBe(
      20 * (100 + 2 * 10) + 100,
    );
    // Filled: the segment and the edge closing it back.
    expect(svgPaintWork(tree(line('fill="#000000" stroke="none"')), 1).segments).toBe(2);
    // Filled and stroked: each counts them (the stroke the closing edge too, an upper bound).
    expect(svgPaintWork(tree(line('fill="#000000" stroke="#000000"')), 1).segments).toBe(4);
  });

  it('counts each dash as a segment', () => {
    expect(svgPaintWork(tree(line('fill="none" stroke="#000000" stroke-dasharray="2 3"')), 1).segments).toBe(
      1 + 100 / 5,
    );
  });
});
