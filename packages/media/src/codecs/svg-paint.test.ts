import { describe, expect, it } from 'vitest';
import { svgPaintWork } from './svg-paint.js';

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
