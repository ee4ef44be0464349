// Markers, read from the source text: usvg copies a marker's content into its tree once for every vertex the
// marker is drawn at (each copy a group with its own clip path), while it parses, before any check on the
// resolved tree can run. `marker-mid` on a path of 20,000 vertices is 20,000 groups: 2.7 s of CPU here.
// element-facts.ts counts those copies as elements; this file says which markers a shape takes (presentation
// attribute, `style`, a style sheet, or inherited from an ancestor) and how many vertices it has.
import { attribute } from './attribute.js';

export type MarkerKind = 'start' | 'mid' | 'end';

/** Marker ids by kind: an id, `''` for none; a kind not set here is inherited. */
export type MarkerSettings = Partial<Record<MarkerKind, string>>;

const KINDS: readonly MarkerKind[] = ['start', 'mid', 'end'];

/** Elements usvg draws markers on. */
export function takesMarkers(name: string): boolean {
  return /^(?:\w+:)?(?:path|line|polyline|polygon)$/.test(name);
}

/** A style sheet rule that sets markers, with its selectors reduced to the compound each ends in. */
interface MarkerRule {
  compounds: Array<{ tag?: string; id?: string; classes: string[] }>;
  settings: MarkerSettings;
}

/**
 * The rules of the SVG's `<style>` sheets that set markers. Only the last compound of each selector is kept
 * (`g.chart > path.line` matches any `path.line`), and pseudo-classes and attribute tests are ignored: a rule
 * may match more elements than in a browser, never fewer.
 */
export function markerRules(svg: string): MarkerRule[] {
  const rules: MarkerRule[] = [];
  for (const [, sheet = ''] of svg.matchAll(/<(?:\w+:)?style\b[^>]*>([\s\S]*?)<\/(?:\w+:)?style\s*>/g)) {
    if (!sheet.includes('marker')) continue;
    const css = sheet.replace(/<!\[CDATA\[|\]\]>|\/\*[\s\S]*?\*\//g, ' ');
    for (const [, selectors = '', body = ''] of css.matchAll(/([^{}]*)\{([^{}]*)\}/g)) {
      const settings = declaredMarkers(body);
      if (Object.keys(settings).length === 0) continue;
      const compounds = selectors.split(',').map((selector) => {
        const last =
          selector
            .trim()
            .split(/[\s>+~]+/)
            .pop() ?? '';
        const tag = /^(?:[\w-]+\|)?([\w-]+)/.exec(last)?.[1];
        return {
          ...(tag !== undefined && { tag }),
          ...(/#([\w-]+)/.exec(last)?.[1] !== undefined && { id: /#([\w-]+)/.exec(last)?.[1] as string }),
          classes: [...last.matchAll(/\.([\w-]+)/g)].map((match) => match[1] as string),
        };
      });
      rules.push({ compounds, settings });
    }
  }
  return rules;
}

/**
 * The markers an element sets itself (inherited kinds are the caller's): the `style` attribute over style
 * sheet rules over presentation attributes, as in CSS. A sheet rule naming a marker wins over a `none`
 * anywhere but in `style`, since its selector may match more than it should.
 */
export function ownMarkers(name: string, attributes: string, rules: readonly MarkerRule[]): MarkerSettings {
  if (rules.length === 0 && !attributes.includes('marker')) return {};
  const presentation: MarkerSettings = {};
  for (const [, property = '', value = ''] of attributes.matchAll(
    /(?:^|\s)(marker(?:-start|-mid|-end)?)\s*=\s*(?:"([^"]*)"|'([^']*)')/g,
  )) {
    Object.assign(presentation, declaredMarkers(`${property}:${value}`));
  }
  const sheet: MarkerSettings = {};
  if (rules.length > 0) {
    const tag = name.replace(/^\w+:/, '');
    const id = attribute(attributes, 'id');
    const classes = attribute(attributes, 'class').split(/\s+/);
    for (const rule of rules) {
      const matches = rule.compounds.some(
        (compound) =>
          (compound.tag === undefined || compound.tag === tag) &&
          (compound.id === undefined || compound.id === id) &&
          compound.classes.every((name) => classes.includes(name)),
      );
      if (!matches) continue;
      for (const kind of KINDS) {
        const value = rule.settings[kind];
        if (value !== undefined && (value !== '' || sheet[kind] === undefined)) sheet[kind] = value;
      }
    }
  }
  const style = declaredMarkers(attribute(attributes, 'style'));
  const own: MarkerSettings = { ...presentation };
  for (const kind of KINDS) {
    const fromSheet = sheet[kind];
    if (fromSheet !== undefined && (fromSheet !== '' || own[kind] === undefined)) own[kind] = fromSheet;
  }
  return { ...own, ...style };
}

/** Marker properties in CSS declarations (`marker` sets all three kinds). */
function declaredMarkers(declarations: string): MarkerSettings {
  const settings: MarkerSettings = {};
  if (!declarations.includes('marker')) return settings;
  for (const [, property = '', value = ''] of declarations.matchAll(
    /(?:^|[;{\s])(marker(?:-start|-mid|-end)?)\s*:\s*([^;]*)/g,
  )) {
    const id = /^\s*url\(\s*["']?#([^"')]*)/.exec(value)?.[1] ?? (/^\s*none\b/.test(value) ? '' : undefined);
    if (id === undefined) continue;
    const kind = property.slice('marker-'.length);
    for (const each of KINDS) if (kind === '' || kind === each) settings[each] = id;
  }
  return settings;
}

/**
 * The vertices a shape has once usvg has made it a path, an upper bound: every point a segment ends at, where
 * `marker-mid` draws a copy. An elliptical arc becomes up to max(4, (11.2 r)^(1/6)) cubic curves (kurbo's
 * subdivision at usvg's 0.1 tolerance; an arc of radius 1e19 is ~2,200 curves), counted for a full turn.
 */
export function shapeVertices(name: string, attributes: string): number {
  switch (name.replace(/^\w+:/, '')) {
    case 'line':
      return 2;
    case 'polyline':
    case 'polygon':
      return Math.ceil(numberCount(attribute(attributes, 'points')) / 2);
    default:
      return pathVertices(attribute(attributes, 'd'));
  }
}

function numberCount(text: string): number {
  return text.match(NUMBER)?.length ?? 0;
}

const NUMBER = /[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/g;
/** Numbers each segment of a path command takes. */
const ARGUMENTS: Record<string, number> = { m: 2, l: 2, h: 1, v: 1, c: 6, s: 4, q: 4, t: 2, a: 7 };
/** Largest finite f32: usvg's coordinates are single precision. */
const F32_MAX = 3.4e38;

/** Segment end points of path data (see `shapeVertices`), tracking the current point for arcs' sizes. */
export function pathVertices(d: string): number {
  let vertices = 0;
  let [x, y, startX, startY] = [0, 0, 0, 0];
  for (const [, letter = '', rest = ''] of d.matchAll(/([MLHVCSQTAZmlhvcsqtaz])([^MLHVCSQTAZmlhvcsqtaz]*)/g)) {
    const command = letter.toLowerCase();
    if (command === 'z') {
      [x, y] = [startX, startY];
      continue;
    }
    const relative = letter !== letter.toUpperCase();
    const values = command === 'a' ? arcArguments(rest) : (rest.match(NUMBER) ?? []).map(Number);
    const step = ARGUMENTS[command] as number;
    for (let at = 0; at + step <= values.length; at += step) {
      const group = values.slice(at, at + step);
      const [nextX, nextY] =
        command === 'h'
          ? [(relative ? x : 0) + (group[0] as number), y]
          : command === 'v'
            ? [x, (relative ? y : 0) + (group[0] as number)]
            : [(relative ? x : 0) + (group[step - 2] as number), (relative ? y : 0) + (group[step - 1] as number)];
      if (command === 'a') {
        // kurbo scales radii too small to join the end points up to half their distance.
        const radius = Math.min(
          F32_MAX,
          Math.max(Math.abs(group[0] as number), Math.abs(group[1] as number), Math.hypot(nextX - x, nextY - y) / 2),
        );
        vertices += Math.ceil(Math.max(4, (1.1163 * (radius / 0.1)) ** (1 / 6)));
      } else {
        vertices++;
      }
      [x, y] = [nextX, nextY];
      if (command === 'm' && at === 0) [startX, startY] = [x, y];
    }
  }
  return vertices;
}

/** An arc's numbers: its two flags are single digits that need no separator (`a1 1 0 01 5 5`). */
function arcArguments(text: string): number[] {
  const values: number[] = [];
  const token = /[\s,]*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)/y;
  const flag = /[\s,]*([01])/y;
  let at = 0;
  for (;;) {
    const pattern = values.length % 7 === 3 || values.length % 7 === 4 ? flag : token;
    pattern.lastIndex = at;
    const match = pattern.exec(text);
    if (!match) return values;
    values.push(Number(match[1]));
    at = pattern.lastIndex;
  }
}
