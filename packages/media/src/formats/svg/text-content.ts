// The text an SVG draws (character data of <text> elements), for the checks made before rendering:
// how much there is (layout cost) and which scripts no available font covers (resvg leaves them blank).
import { covers, type Coverage } from './fonts/font-coverage.js';

const TEXT_ELEMENT = /<text\b[^>]*>([\s\S]*?)<\/text\s*>/g;
const NAMED_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** The drawn characters of every <text> element, with tags removed and character references resolved. */
export function svgTextContent(svg: string): string {
  let text = '';
  for (const match of svg.matchAll(TEXT_ELEMENT)) {
    text += (match[1] ?? '')
      .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, '$1')
      .replace(/<[^>]*>/g, '')
      .replace(/&(#x[0-9a-fA-F]+|#[0-9]+|\w+);/g, (entity, name: string) => {
        if (name.startsWith('#x')) return safeChar(parseInt(name.slice(2), 16)) ?? entity;
        if (name.startsWith('#')) return safeChar(parseInt(name.slice(1), 10)) ?? entity;
        return NAMED_ENTITIES[name] ?? entity;
      });
  }
  return text;
}

function safeChar(codePoint: number): string | undefined {
  return codePoint >= 0 && codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : undefined;
}

/** Scripts named in warnings, most common first; characters in none of them are reported as "other". */
const SCRIPTS: ReadonlyArray<readonly [string, RegExp]> = [
  ['emoji', /\p{Extended_Pictographic}/u],
  ['Han (Chinese characters)', /\p{Script=Han}/u],
  ['Hiragana', /\p{Script=Hiragana}/u],
  ['Katakana', /\p{Script=Katakana}/u],
  ['Hangul', /\p{Script=Hangul}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Greek', /\p{Script=Greek}/u],
  ['Arabic', /\p{Script=Arabic}/u],
  ['Hebrew', /\p{Script=Hebrew}/u],
  ['Devanagari', /\p{Script=Devanagari}/u],
  ['Bengali', /\p{Script=Bengali}/u],
  ['Tamil', /\p{Script=Tamil}/u],
  ['Thai', /\p{Script=Thai}/u],
  ['Armenian', /\p{Script=Armenian}/u],
  ['Georgian', /\p{Script=Georgian}/u],
  ['Ethiopic', /\p{Script=Ethiopic}/u],
  ['Latin', /\p{Script=Latin}/u],
  ['symbols', /[\p{S}\p{P}\p{N}]/u],
];

/** The scripts of the characters in `text` that none of `coverages` has a glyph for (whitespace and controls ignored). */
export function uncoveredScripts(text: string, coverages: readonly Coverage[]): string[] {
  const missing = new Set<string>();
  const seen = new Set<number>();
  for (const char of text) {
    const codePoint = char.codePointAt(0) ?? 0;
    if (seen.has(codePoint)) continue;
    seen.add(codePoint);
    if (/[\s\p{Cc}\p{Cf}\p{M}]/u.test(char) || coverages.some((coverage) => covers(coverage, codePoint))) continue;
    missing.add(SCRIPTS.find(([, pattern]) => pattern.test(char))?.[0] ?? 'other');
  }
  return SCRIPTS.map(([name]) => name)
    .filter((name) => missing.has(name))
    .concat(missing.has('other') ? ['other'] : []);
}
