import { describe, expect, it } from 'vitest';
import { markerRules, ownMarkers, pathVertices, shapeVertices } from './markers.js';

describe('pathVertices: the points usvg marks, an upper bound', () => {
  it('counts implicit and relative segments, and not closepaths', () => {
    expect(pathVertices('M0 0 L1 1 2 2 3 3')).toBe(4);
    expect(pathVertices('M0 0 1 1 2 2z m1 1 h5 v5 c1 1 1 1 1 1 1 1 1 1 1 1')).toBe(8);
    expect(pathVertices('M0,0C1,1,2,2,3,3S4,4,5,5Q6,6,7,7T8,8')).toBe(5);
  });

  it('counts an arc as the curves kurbo splits it into: 4 for a small one, ~2,200 for radius 1e19', () => {
    expect(pathVertices('M10 10 A100 100 0 1 1 20 10')).toBe(1 + 4);
    expect(pathVertices('M10 10 a1e12 1e12 0 1 1 20 10')).toBe(1 + 150); // usvg made 150
    expect(pathVertices('M10 10 a1e19 1e19 0 1 1 20 10')).toBe(1 + 2195); // usvg made 2,195
    // Radii too small for the end points grow to half their distance (a half turn here: usvg made 67).
    expect(pathVertices('M0 0 A1 1 0 0 1 1e12 0')).toBe(1 + 134);
  });

  it('reads arc flags written without separators', () => {
    expect(pathVertices('M0 0a1 1 0 01 5 5a1 1 0 1110 10')).toBe(1 + 4 + 4);
  });

  it('counts polyline and polygon points, and a line as two', () => {
    expect(shapeVertices('polyline', 'points="0,0 1,1 2,2"')).toBe(3);
    expect(shapeVertices('svg:polygon', "points='0 0 1 1 2 2 3 3'")).toBe(4);
    expect(shapeVertices('line', 'x1="0" x2="5"')).toBe(2);
  });
});

describe('ownMarkers: which markers an element sets', () => {
  it('reads presentation attributes and the style attribute, which wins', () => {
    expect(ownMarkers('path', 'marker-start="url(#a)" marker-end="none"', [])).toEqual({ start: 'a', end: '' });
    expect(ownMarkers('path', `marker-mid="url(#a)" style="marker-mid: url('#b'); fill: red"`, [])).toEqual({
      mid: 'b',
    });
    expect(ownMarkers('path', 'style="marker:url(#c)"', [])).toEqual({ start: 'c', mid: 'c', end: 'c' });
    expect(ownMarkers('path', 'fill="red"', [])).toEqual({});
  });

  it('matches style sheet rules by the last compound of each selector, and lets them name a marker over a none', () => {
    const rules = markerRules(
      '<style><![CDATA[ svg .chart > path.line, #solo { marker-mid: url(#dot) } /* none */ rect { marker: url(#x) } ]]></style>',
    );
    expect(ownMarkers('path', 'class="line thick"', rules)).toEqual({ mid: 'dot' });
    expect(ownMarkers('polyline', 'id="solo"', rules)).toEqual({ mid: 'dot' });
    expect(ownMarkers('path', 'class="thick" marker-mid="none"', rules)).toEqual({ mid: '' });
    expect(ownMarkers('path', 'class="line" marker-mid="none"', rules)).toEqual({ mid: 'dot' });
    expect(ownMarkers('path', 'class="line" style="marker-mid:none"', rules)).toEqual({ mid: '' });
    expect(markerRules('<style>path { fill: red }</style>')).toEqual([]);
  });
});
