import { MediaError } from '../../errors.js';

/**
 * The most indirect objects a PDF may declare (PDF 1.7, annex C: 8,388,607), lowered to what pdf-lib
 * parses in a few seconds: it builds one entry per declared object (~10 µs each) before any check of its own.
 */
export const MAX_PDF_OBJECTS = 1_000_000;

/** How much each filter can expand its input at most, so a stream's decoded size is bounded from its stored size. */
const EXPANSION: Record<string, number> = {
  FlateDecode: 1032, // deflate's maximum ratio
  Fl: 1032,
  LZWDecode: 4096, // one 9-bit code can stand for a 4096-byte string
  LZW: 4096,
  RunLengthDecode: 64, // 2 bytes → 128
  RL: 64,
  ASCIIHexDecode: 1,
  AHx: 1,
  ASCII85Decode: 1,
  A85: 1,
};

/**
 * Refuses, from facts read without parsing, the PDFs that make pdf-lib loop for minutes or exhaust memory:
 * a cross-reference stream (/Size, /Index) or an object stream (/N) that declares more objects than its
 * own stored bytes can describe, or more than MAX_PDF_OBJECTS, and numbers past 2^53 in those dictionaries.
 * Each such dictionary is uncompressed by definition (neither may sit inside an object stream), so a scan of
 * the raw bytes sees them all. Cost: one pass over the file as Latin-1 text.
 */
export function assertPdfBounds(bytes: Uint8Array): void {
  const text = latin1(bytes);
  for (const match of text.matchAll(/\/Type\s*\/(XRef|ObjStm)\b/g)) {
    const kind = match[1] === 'XRef' ? 'XRef' : 'ObjStm';
    const dict = enclosingDictionary(text, match.index ?? 0);
    if (dict === undefined) continue;
    const storedLength = streamLength(text, dict.end);
    // Not a stream: a classic trailer may name /Type /XRef too (pdf.js's issue14821.pdf, which qpdf calls clean).
    // It has no data to hold its entries, so only the object cap applies.
    const decodedLimit = storedLength === undefined ? Number.POSITIVE_INFINITY : storedLength * expansionOf(dict.text);
    if (kind === 'XRef') {
      const widths = numbersIn(arrayValue(dict.text, 'W'));
      const entryBytes = Math.max(
        1,
        widths.reduce((sum, width) => sum + width, 0),
      );
      const index = numbersIn(arrayValue(dict.text, 'Index'));
      const entries =
        index.length > 0
          ? index.filter((_, i) => i % 2 === 1).reduce((sum, n) => sum + n, 0)
          : (numberValue(dict.text, 'Size') ?? 0);
      if (widths.some((width) => width > 8))
        refuse(`its cross-reference stream gives a field width of ${Math.max(...widths)} bytes`);
      assertObjectCount(entries, 'cross-reference stream', entries * entryBytes, decodedLimit);
    } else {
      // An object stream starts with one "number offset" pair per object: at least 4 bytes each.
      const count = numberValue(dict.text, 'N') ?? 0;
      assertObjectCount(count, 'object stream', count * 4, decodedLimit);
    }
  }
}

function assertObjectCount(count: number, where: string, neededBytes: number, decodedLimit: number): void {
  if (!Number.isSafeInteger(count) || count > MAX_PDF_OBJECTS) {
    refuse(
      `its ${where} declares ${count > 1e15 ? 'an out-of-range number of' : count} objects (at most ${MAX_PDF_OBJECTS.toLocaleString('en-US')} are read)`,
    );
  }
  if (neededBytes > decodedLimit)
    refuse(`its ${where} declares ${count} objects, more than its ${Math.round(decodedLimit)} bytes of data can hold`);
}

function refuse(problem: string): never {
  throw new MediaError('E_CORRUPT', `The PDF file is malformed: ${problem}. Re-export it, or print it to a new PDF.`, {
    format: 'PDF',
  });
}

function latin1(bytes: Uint8Array): string {
  return new TextDecoder('latin1').decode(bytes);
}

/** The `<< … >>` dictionary around `at`, balancing nested dictionaries; undefined when there is none nearby. */
function enclosingDictionary(text: string, at: number): { text: string; end: number } | undefined {
  const start = text.lastIndexOf('obj', at);
  if (start < 0 || at - start > 4096) return undefined;
  const open = text.indexOf('<<', start);
  if (open < 0 || open > at) return undefined;
  let depth = 0;
  const limit = Math.min(text.length, open + 65536);
  for (let i = open; i < limit; i++) {
    // Strings are skipped whole: a hex string's closing `>` before the dictionary's `>>`, or a `>>` inside a
    // literal string (a binary /ID), is not the dictionary's end.
    if (text[i] === '(') i = literalStringEnd(text, i, limit);
    else if (text[i] === '<' && text[i + 1] !== '<') {
      const close = text.indexOf('>', i);
      i = close < 0 || close >= limit ? limit : close;
    } else if (text.startsWith('<<', i)) {
      depth++;
      i++;
    } else if (text.startsWith('>>', i)) {
      depth--;
      i++;
      if (depth === 0) return { text: text.slice(open, i + 1), end: i + 1 };
    }
  }
  return undefined;
}

/** The index of the `)` closing the literal string opened at `open` (nested parentheses, backslash escapes), or `limit`. */
function literalStringEnd(text: string, open: number, limit: number): number {
  let depth = 0;
  for (let i = open; i < limit; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return limit;
}

/**
 * Bytes between `stream` and `endstream` after a dictionary (its /Length may be an indirect reference), or
 * undefined when no `stream` keyword follows it. The keyword's end of line is taken as readers take it (CR LF,
 * LF, or a lone CR; spaces before it); any `stream` counts, as pdf-lib starts a stream at the bare word.
 */
function streamLength(text: string, dictEnd: number): number | undefined {
  const start = /^\s*stream[ \t]*(?:\r\n|\n|\r)?/.exec(text.slice(dictEnd, dictEnd + 64));
  if (!start) return undefined;
  const from = dictEnd + start[0].length;
  const end = text.indexOf('endstream', from);
  return end < 0 ? text.length - from : end - from;
}

function expansionOf(dict: string): number {
  const filter = /\/Filter\s*(\[[^\]]*\]|\/\w+)/.exec(dict)?.[1];
  if (filter === undefined) return 1;
  let factor = 1;
  for (const name of filter.matchAll(/\/(\w+)/g)) factor *= EXPANSION[name[1] ?? ''] ?? 1032;
  return factor;
}

function numberValue(dict: string, key: string): number | undefined {
  const match = new RegExp(`/${key}\\s+(\\d+)(?![\\d.]|\\s+\\d+\\s+R)`).exec(dict);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

function arrayValue(dict: string, key: string): string {
  return new RegExp(`/${key}\\s*\\[([^\\]]*)\\]`).exec(dict)?.[1] ?? '';
}

function numbersIn(list: string): number[] {
  return list.trim() === '' ? [] : list.trim().split(/\s+/).map(Number);
}
