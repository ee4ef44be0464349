// The cross-reference data a strict PDF reader starts from: `startxref` names the byte offset of the last
// cross-reference section (a table after `xref`, or a cross-reference stream object), and each table entry
// in use names the offset of its object. qpdf trusts them; when they are wrong it rebuilds the table by
// scanning, which fails outright for a file whose trailer is only in a cross-reference stream ("unable to find
// trailer dictionary while recovering damaged file"). pdf-lib never reads them: it scans the objects itself,
// which is why a file it reads can still be one a provider refuses.

import { indexOfAscii } from '../probe/byte-reader.js';
import { inflateFlate } from './pdf-inflate.js';

const decoder = new TextDecoder('latin1');
/** Sections followed through /Prev (incremental updates, linearized files): real files have a few. */
const MAX_SECTIONS = 64;

/**
 * What is wrong with the file's cross-reference data, or undefined when `startxref` leads to a table (or
 * stream) and every table entry in use, through the /Prev chain, points at its own `N G obj`.
 * Cross-reference streams are checked for where they start, not entry by entry.
 */
export function checkPdfXref(bytes: Uint8Array): string | undefined {
  const tail = decoder.decode(bytes.subarray(Math.max(0, bytes.length - 2048)));
  const start = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail) ?? [...tail.matchAll(/startxref\s+(\d+)/g)].pop();
  if (!start) return 'it has no startxref';
  const seen = new Set<number>();
  for (let offset = Number(start[1]), sections = 0; ; sections++) {
    if (!(offset < bytes.length)) return `a cross-reference offset (${offset}) is past the end of the file`;
    if (seen.has(offset) || sections >= MAX_SECTIONS) return 'its cross-reference sections refer back to each other';
    seen.add(offset);
    const problem = checkSection(bytes, offset);
    if (typeof problem === 'string') return problem;
    if (problem === undefined) return undefined;
    offset = problem;
  }
}

/** A section's problem, or the offset of the section before it (/Prev), or undefined for the first. */
function checkSection(bytes: Uint8Array, offset: number): string | number | undefined {
  const head = decoder.decode(bytes.subarray(offset, offset + 64));
  if (/^\s*\d+\s+\d+\s+obj\b/.test(head)) return checkXrefStream(bytes, offset);
  if (!/^\s*xref\b/.test(head)) return `startxref points at byte ${offset}, where there is no cross-reference table`;
  // The table runs to its trailer: only that much is read, even when it is near the start (linearized files).
  const end = indexOfAscii(bytes, 'trailer', offset);
  if (end < 0) return 'its cross-reference table is not followed by a trailer';
  const text = decoder.decode(bytes.subarray(offset, end + 4096));
  const entry = /\s*(\d+)\s+(\d+)\s+([nf])\b/y;
  const subsection = /\s*(\d+)\s+(\d+)\s*(?=\d{10}|trailer\b)/y;
  let at = /^\s*xref/.exec(text)?.[0].length ?? 0;
  for (;;) {
    subsection.lastIndex = at;
    const header = subsection.exec(text);
    if (!header) break;
    at = subsection.lastIndex;
    const first = Number(header[1]);
    for (let i = 0; i < Number(header[2]); i++) {
      entry.lastIndex = at;
      const found = entry.exec(text);
      if (!found) return `its cross-reference table is cut short at object ${first + i}`;
      at = entry.lastIndex;
      if (found[3] === 'n' && !objectAt(bytes, Number(found[1]), first + i))
        return `its cross-reference table puts object ${first + i} at byte ${found[1]}, where that object is not`;
    }
  }
  const trailer = /^\s*trailer\s*(<<[\s\S]*?)(?:startxref|$)/.exec(text.slice(at))?.[1];
  if (trailer === undefined) return 'its cross-reference table is not followed by a trailer';
  if (largeNumber(trailer)) return `its trailer holds a number past ${MAX_INT}`;
  return previous(trailer);
}

/** A PDF name ends at whitespace or a delimiter. */
const END_OF_NAME = '(?=[\\s/<>\\[\\]()%]|$)';
/** qpdf reads the numbers of a cross-reference section into 32-bit ints. */
const MAX_INT = 2 ** 31 - 1;

/**
 * A cross-reference stream: an object (numbered 1 or more) whose dictionary says /Type /XRef, with a /Size,
 * a /W of three field widths, whole numbers in range, a direct /Length that ends at `endstream`, and data that
 * inflates to entries whose objects (type 1) are where they say.
 */
function checkXrefStream(bytes: Uint8Array, offset: number): string | number | undefined {
  const text = decoder.decode(bytes.subarray(offset, offset + 4096));
  const [, number = '0', dictionary = ''] =
    /^\s*(\d+)\s+\d+\s+obj\s*(<<[\s\S]*?)\bstream(?:\r\n|\n|\r)/.exec(text) ?? [];
  const where = `the cross-reference stream at byte ${offset}`;
  if (!new RegExp(`/Type\\s*/XRef${END_OF_NAME}`).test(dictionary))
    return `startxref points at an object (byte ${offset}) that is not a cross-reference stream`;
  if (Number(number) < 1) return `${where} is numbered 0`;
  const integer = (key: string) => {
    const value = new RegExp(`/${key}${END_OF_NAME}\\s*([-+\\d.]+)(?!\\s+\\d+\\s+R)`).exec(dictionary)?.[1];
    return value !== undefined && /^\d+$/.test(value) && Number(value) <= MAX_INT ? Number(value) : undefined;
  };
  const size = integer('Size');
  const length = integer('Length');
  const widths = /\/W\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s*\]/.exec(dictionary)?.slice(1).map(Number) ?? [];
  if (size === undefined) return `${where} has no whole /Size in range`;
  if (widths.length !== 3 || widths.some((width) => width > 8)) return `${where} has no /W of three field widths`;
  if (length === undefined) return `${where} has no direct /Length`;
  if (largeNumber(dictionary)) return `${where} holds a number past ${MAX_INT}`;
  const dataStart = offset + (/^[\s\S]*?\bstream(?:\r\n|\n|\r)/.exec(text)?.[0].length ?? 0);
  if (!/^\s*endstream\b/.test(decoder.decode(bytes.subarray(dataStart + length, dataStart + length + 32))))
    return `${where} does not end where its /Length says`;
  const entries = xrefStreamEntries(bytes.subarray(dataStart, dataStart + length), dictionary, widths);
  if (typeof entries === 'string') return `${where} ${entries}`;
  if (entries === undefined) return previous(dictionary);
  const index = (/\/Index\s*\[([\d\s]*)\]/.exec(dictionary)?.[1] ?? `0 ${size}`).trim().split(/\s+/).map(Number);
  let row = 0;
  for (let pair = 0; pair + 1 < index.length; pair += 2) {
    for (let i = 0; i < (index[pair + 1] ?? 0); i++, row++) {
      const fields = entries[row];
      if (!fields) return `${where} has fewer entries than its /Index lists`;
      const [type, field2 = 0] = fields;
      if (type === 1 && !objectAt(bytes, field2, (index[pair] ?? 0) + i))
        return `${where} puts object ${(index[pair] ?? 0) + i} at byte ${field2}, where that object is not`;
    }
  }
  return previous(dictionary);
}

/** Inflated bytes of a cross-reference stream read at most (a real one is a few bytes per object). */
const MAX_XREF_STREAM = 64 * 1024 * 1024;

/**
 * The stream's rows as [type, field 2, field 3] (type 1 when /W gives the type no bytes), undone from Flate and
 * PNG predictors; undefined for what is not checked here (another filter, a bomb).
 */
function xrefStreamEntries(data: Uint8Array, dictionary: string, widths: number[]): number[][] | string | undefined {
  let rows = data;
  if (/\/Filter\s*\/FlateDecode\b/.test(dictionary)) {
    const inflated = inflateFlate(data, MAX_XREF_STREAM, true);
    if (inflated.overLimit || inflated.bytes === undefined) return undefined;
    if (inflated.error !== undefined) return `cannot be inflated (zlib: ${inflated.error})`;
    rows = inflated.bytes;
  } else if (/\/Filter\b/.test(dictionary)) {
    return undefined; // real files use Flate; another filter is left to the reader
  }
  const predictor = Number(/\/Predictor\s+(\d+)/.exec(dictionary)?.[1] ?? 1);
  if (predictor >= 10) rows = unpredict(rows, Number(/\/Columns\s+(\d+)/.exec(dictionary)?.[1] ?? 1));
  const width = widths.reduce((sum, w) => sum + w, 0);
  const entries: number[][] = [];
  for (let at = 0; width > 0 && at + width <= rows.length; at += width) {
    const fields: number[] = [];
    let position = at;
    for (const w of widths) {
      let value = 0;
      for (let k = 0; k < w; k++) value = value * 256 + (rows[position++] as number);
      fields.push(value);
    }
    if (widths[0] === 0) fields[0] = 1;
    entries.push(fields);
  }
  return entries;
}

/** PNG row filters (predictors 10-15): a filter byte before each row of `columns` bytes. */
function unpredict(data: Uint8Array, columns: number): Uint8Array {
  const rows = Math.floor(data.length / (columns + 1));
  const out = new Uint8Array(rows * columns);
  for (let row = 0; row < rows; row++) {
    const filter = data[row * (columns + 1)];
    for (let i = 0; i < columns; i++) {
      const at = row * columns + i;
      const raw = data[row * (columns + 1) + 1 + i] as number;
      const left = i > 0 ? (out[at - 1] as number) : 0;
      const up = row > 0 ? (out[at - columns] as number) : 0;
      const upLeft = row > 0 && i > 0 ? (out[at - columns - 1] as number) : 0;
      let predicted = 0;
      if (filter === 1) predicted = left;
      else if (filter === 2) predicted = up;
      else if (filter === 3) predicted = (left + up) >> 1;
      else if (filter === 4) {
        const p = left + up - upLeft;
        const [a, b, c] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)];
        predicted = a <= b && a <= c ? left : b <= c ? up : upLeft;
      }
      out[at] = (raw + predicted) & 0xff;
    }
  }
  return out;
}

/** Whether a dictionary holds a number past what qpdf reads (strings, such as the /ID's hex, are not numbers). */
function largeNumber(dictionary: string): boolean {
  const tokens = dictionary.replace(/<[0-9A-Fa-f\s]*>|\([^()]*\)/g, ' ');
  return [...tokens.matchAll(/(?<![\w.])\d{10,}(?![\w.])/g)].some(([n]) => Number(n) > MAX_INT);
}

function previous(dictionary: string): number | undefined {
  const prev = /\/Prev\s+(\d+)/.exec(dictionary)?.[1];
  return prev === undefined ? undefined : Number(prev);
}

/** Whether `N G obj` for object `number` starts at `offset` (whitespace before it is tolerated, as readers do). */
function objectAt(bytes: Uint8Array, offset: number, number: number): boolean {
  let at = offset;
  while (at < bytes.length && isSpace(bytes[at] as number)) at++;
  let read = 0;
  const digitsFrom = at;
  while (at < bytes.length && isDigit(bytes[at] as number)) read = read * 10 + ((bytes[at++] as number) - 48);
  if (at === digitsFrom || read !== number || !isSpace(bytes[at] ?? 0)) return false;
  // The generation and the keyword: a short, plain stretch.
  return /^\s+\d+\s+obj\b/.test(decoder.decode(bytes.subarray(at, at + 16)));
}

function isSpace(byte: number): boolean {
  return byte === 32 || byte === 10 || byte === 13 || byte === 9 || byte === 12 || byte === 0;
}

function isDigit(byte: number): boolean {
  return byte >= 48 && byte <= 57;
}
