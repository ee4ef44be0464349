// Path segments counted in the SVG's source text, before usvg parses it. usvg's tree of a path takes about
// 27 bytes of memory per source byte (a 17.5 MB path of 2,000,000 segments: 470 MB, 4.8 s to parse before
// paint.ts could refuse it), so a count that alone exceeds the render budget is refused before parsing.
// A lower bound: segments in unused <defs> count, but <use> copies do not (paint.ts counts those).

/** Numbers each path command reads per segment (M: after its first point, each further pair is a line). */
const ARITY: Readonly<Record<string, number>> = { m: 2, l: 2, h: 1, v: 1, c: 6, s: 4, q: 4, t: 2, a: 7 };

const PATH_DATA = /\s(d|points)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const TOKEN = /([MmLlHhVvCcSsQqTtAaZz])|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/g;

/** Segments the source's `d` and `points` attributes draw, at least. */
export function sourcePathSegments(svg: string): number {
  let segments = 0;
  for (const [, name, double, single] of svg.matchAll(PATH_DATA)) {
    const data = double ?? single ?? '';
    segments += name === 'points' ? Math.max(0, (data.match(TOKEN)?.length ?? 0) / 2 - 1) : dataSegments(data);
  }
  return segments;
}

function dataSegments(data: string): number {
  let segments = 0;
  let command = '';
  let numbers = 0;
  const close = () => {
    const arity = ARITY[command];
    if (arity !== undefined) segments += Math.max(0, Math.floor(numbers / arity) - (command === 'm' ? 1 : 0));
  };
  for (const [, letter] of data.matchAll(TOKEN)) {
    if (letter === undefined) {
      numbers++;
      continue;
    }
    close();
    command = letter.toLowerCase();
    numbers = 0;
    if (command === 'z') segments++;
  }
  close();
  return segments;
}
