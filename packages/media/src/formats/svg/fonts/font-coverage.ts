// Which code points a font has glyphs for, read from its cmap table (TrueType/OpenType, and each face of a
// collection). Used to warn about SVG text that no font can draw, since resvg silently leaves it blank.

/** Sorted, non-overlapping [first, last] code point ranges. */
export type Coverage = Array<readonly [number, number]>;

/** The code points `font` (TTF, OTF or TTC bytes) maps to a glyph; empty for bytes that are not a font. */
export function fontCoverage(font: Uint8Array): Coverage {
  const view = new DataView(font.buffer, font.byteOffset, font.byteLength);
  try {
    if (font.length >= 12 && view.getUint32(0) === 0x74746366) {
      // 'ttcf': a collection; each face has its own table directory.
      const faces = view.getUint32(8);
      const ranges: Coverage = [];
      for (let i = 0; i < Math.min(faces, 64); i++) ranges.push(...faceCoverage(view, view.getUint32(12 + i * 4)));
      return merge(ranges);
    }
    return merge(faceCoverage(view, 0));
  } catch {
    return []; // a RangeError from a damaged table: resvg will not draw from it either
  }
}

export function covers(coverage: Coverage, codePoint: number): boolean {
  let low = 0;
  let high = coverage.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const [first, last] = coverage[middle]!;
    if (codePoint < first) high = middle - 1;
    else if (codePoint > last) low = middle + 1;
    else return true;
  }
  return false;
}

function faceCoverage(view: DataView, directory: number): Coverage {
  const tables = view.getUint16(directory + 4);
  for (let i = 0; i < tables; i++) {
    const record = directory + 12 + i * 16;
    if (view.getUint32(record) === 0x636d6170) return cmapCoverage(view, view.getUint32(record + 8)); // 'cmap'
  }
  return [];
}

/** The best Unicode subtable: format 12 (full repertoire) if present, else format 4 (BMP). */
function cmapCoverage(view: DataView, cmap: number): Coverage {
  const count = view.getUint16(cmap + 2);
  let format4: number | undefined;
  for (let i = 0; i < count; i++) {
    const platform = view.getUint16(cmap + 4 + i * 8);
    const encoding = view.getUint16(cmap + 6 + i * 8);
    const table = cmap + view.getUint32(cmap + 8 + i * 8);
    const unicode = platform === 0 || (platform === 3 && (encoding === 1 || encoding === 10));
    if (!unicode) continue;
    const format = view.getUint16(table);
    if (format === 12) return format12(view, table);
    if (format === 4) format4 ??= table;
  }
  return format4 === undefined ? [] : format4Ranges(view, format4);
}

function format12(view: DataView, table: number): Coverage {
  const groups = view.getUint32(table + 12);
  const ranges: Coverage = [];
  for (let i = 0; i < groups; i++) {
    const at = table + 16 + i * 12;
    ranges.push([view.getUint32(at), view.getUint32(at + 4)]);
  }
  return ranges;
}

/** Format 4 segments; a code point whose lookup lands on glyph 0 (.notdef) is not covered. */
function format4Ranges(view: DataView, table: number): Coverage {
  const segments = view.getUint16(table + 6) / 2;
  const ends = table + 14;
  const starts = ends + segments * 2 + 2;
  const deltas = starts + segments * 2;
  const offsets = deltas + segments * 2;
  const ranges: Coverage = [];
  for (let s = 0; s < segments; s++) {
    const end = view.getUint16(ends + s * 2);
    const start = view.getUint16(starts + s * 2);
    const delta = view.getUint16(deltas + s * 2);
    const rangeOffset = view.getUint16(offsets + s * 2);
    if (start === 0xffff) continue;
    for (let c = start; c <= end; c++) {
      let glyph: number;
      if (rangeOffset === 0) glyph = (c + delta) & 0xffff;
      else {
        const raw = view.getUint16(offsets + s * 2 + rangeOffset + (c - start) * 2);
        glyph = raw === 0 ? 0 : (raw + delta) & 0xffff;
      }
      if (glyph === 0) continue;
      const last = ranges[ranges.length - 1];
      if (last && last[1] === c - 1) ranges[ranges.length - 1] = [last[0], c];
      else ranges.push([c, c]);
    }
  }
  return ranges;
}

function merge(ranges: Coverage): Coverage {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const merged: Coverage = [];
  for (const range of sorted) {
    const last = merged[merged.length - 1];
    if (last && range[0] <= last[1] + 1) merged[merged.length - 1] = [last[0], Math.max(last[1], range[1])];
    else merged.push(range);
  }
  return merged;
}
