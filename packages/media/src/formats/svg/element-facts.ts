// What an SVG's source draws once every `<use>` and marker is expanded, counted from its text before usvg
// parses it: how deep its elements nest, how many elements, text characters, embedded images and vertices.
import { type MarkerSettings, markerRules, ownMarkers, shapeVertices, takesMarkers } from './markers.js';

/** Element nesting depth; drawings stay far below it (roxmltree itself stops at 1024). */
export const MAX_SVG_DEPTH = 256;

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
 * group and a clip path, drawn once per vertex it marks (markers.ts). Uses and markers in <defs> are counted
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
