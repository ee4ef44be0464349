// How a cheap-facts check refuses an SVG (`E_TOO_COMPLEX`, naming what would take too long), and the number
// reading and printing every such check shares.
import { MediaError } from '../../errors.js';

/** Throws `E_TOO_COMPLEX`: rendering would take too long because of `problem`. */
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

/** A count or size as a message shows it: whole below 10⁹, else in exponent form. */
export function formatNumber(n: number): string {
  return Number.isFinite(n) && n < 1e9 ? String(Math.round(n)) : n.toExponential(1);
}
