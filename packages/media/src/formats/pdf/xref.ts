// The cross-reference data a strict PDF reader starts from: `startxref` names the byte offset of the last
// cross-reference section (a table after `xref`, or a cross-reference stream object), and each table entry
// in use names the offset of its object. qpdf trusts them; when they are wrong it rebuilds the table by
// scanning, which fails outright for a file whose trailer is only in a cross-reference stream ("unable to find
// trailer dictionary while recovering damaged file"). pdf-lib never reads them: it scans the objects itself,
// which is why a file it reads can still be one a provider refuses.

import { indexOfAscii } from '../byte-reader.js';
import { isPdfSpace as isSpace } from './lexical.js';
import { type PdfValue, readPdfDictionary } from './dictionary.js';
import { inflateFlate } from './inflate.js';

const decoder = new TextDecoder('latin1');
/** Sections followed through /Prev (incremental updates, linearized files): real files have a few. */
const MAX_SECTIONS = 64;

/**
 * What is wrong with the file's cross-reference data, or undefined when `startxref` leads to a table (or
 * stream) and every entry in use, through the /Prev chain, points at its own `N G obj`; each trailer (or
 * stream dictionary) reads as a dictionary, its /Prev is a byte offset, and the newest one's /Root names
 * an object that `isDictionary` says is one: qpdf takes the catalog from there ("unable to find /Root
 * dictionary"). A problem is `fatal` when the trailer does not read at all: re-saving would copy what
 * pdf-lib made of it. The rest are mended by a re-save with a fresh table and trailer.
 */
export function checkPdfXref(
  bytes: Uint8Array,
  isDictionary: (number: number, generation: number) => boolean,
): { fatal: boolean; problem: string } | undefined {
  const tail = decoder.decode(bytes.subarray(Math.max(0, bytes.length - 2048)));
  const start = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail) ?? [...tail.matchAll(/startxref\s+(\d+)/g)].pop();
  if (!start) return { fatal: false, problem: 'it has no startxref' };
  const seen = new Set<number>();
  /** Objects in use the sections list (qpdf's view of the file); undefined once a section's entries are unknown. */
  let listed: Set<number> | undefined = new Set<number>();
  let newest: Map<string, PdfValue> | undefined;
  for (let offset = Number(start[1]), sections = 0; ; sections++) {
    const mend = (problem: string) => ({ fatal: false, problem });
    if (!(offset < bytes.length)) return mend(`a cross-reference offset (${offset}) is past the end of the file`);
    if (seen.has(offset) || sections >= MAX_SECTIONS)
      return mend('its cross-reference sections refer back to each other');
    seen.add(offset);
    const section = checkSection(bytes, offset);
    if (typeof section === 'string') return mend(section);
    if ('fatal' in section) return section;
    newest ??= section.trailer;
    // A hybrid file's /XRefStm lists more objects in a stream this walk does not read.
    if (section.objects === undefined || section.trailer.has('XRefStm')) listed = undefined;
    else for (const object of section.objects) listed?.add(object);
    const prev = section.trailer.get('Prev');
    if (prev === undefined) {
      const root = rootProblem(newest, isDictionary, listed);
      return root === undefined ? undefined : mend(root);
    }
    if (prev.kind !== 'number' || !prev.integer || prev.value < 0)
      return mend(`a trailer's /Prev is ${describe(prev)}, not a byte offset`);
    offset = prev.value;
  }
}

/**
 * Why the newest trailer's /Root is not the catalog qpdf looks for (a reference to a dictionary, listed in
 * the cross-reference data when all of it could be read), or undefined when it is.
 */
function rootProblem(
  trailer: Map<string, PdfValue>,
  isDictionary: (number: number, generation: number) => boolean,
  listed: Set<number> | undefined,
): string | undefined {
  const root = trailer.get('Root');
  if (root === undefined) return 'its newest trailer names no /Root (document catalog)';
  if (root.kind !== 'reference')
    return `its trailer's /Root is ${describe(root)}, not a reference to the document catalog`;
  if (!isDictionary(root.number, root.generation))
    return `its trailer's /Root (${root.number} ${root.generation} R) is not a dictionary`;
  if (listed && !listed.has(root.number))
    return `its trailer's /Root (${root.number} ${root.generation} R) is not in its cross-reference data`;
  return undefined;
}

/** A whole number as written (`-0`, `1.0` and references are not), else -1. */
function wholeNumber(value: PdfValue): number {
  return value.kind === 'number' && value.integer && value.value >= 0 && !Object.is(value.value, -0) ? value.value : -1;
}

function describe(value: PdfValue): string {
  if (value.kind === 'number') return `the number ${value.value}`;
  if (value.kind === 'reference') return `a reference (${value.number} ${value.generation} R)`;
  if (value.kind === 'name') return `the name /${value.name}`;
  if (value.kind === 'keyword') return value.word;
  return value.kind === 'array' ? 'an array' : `a ${value.kind}`;
}

/** A fatal problem with a trailer (or cross-reference stream) dictionary that does not read. */
function unreadable(where: string, read: { error: string; at: number }) {
  return { fatal: true as const, problem: `${where} does not read as a dictionary (${read.error} at byte ${read.at})` };
}

/**
 * A section's problem, or its trailer dictionary (whose /Prev names the section before it) and the objects
 * in use it lists (undefined when its entries are not read: a stream in another filter, or a bomb).
 */
type Section =
  | string
  | { fatal: true; problem: string }
  | { trailer: Map<string, PdfValue>; objects: number[] | undefined };

function checkSection(bytes: Uint8Array, offset: number): Section {
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
  const objects: number[] = [];
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
      if (found[3] === 'n' && !objectAt(bytes, Number(found[1]), first + i, Number(found[2])))
        return `its cross-reference table puts object ${first + i} at byte ${found[1]}, where that object is not`;
      if (found[3] === 'n') objects.push(first + i);
    }
  }
  const keyword = /^\s*trailer\s*/.exec(text.slice(at));
  if (!keyword) return 'its cross-reference table is not followed by a trailer';
  const dictionaryAt = offset + at + keyword[0].length;
  const trailer = readPdfDictionary(bytes, dictionaryAt);
  if ('error' in trailer) return unreadable(`the trailer at byte ${dictionaryAt}`, trailer);
  if (largeNumber(decoder.decode(bytes.subarray(dictionaryAt, trailer.end))))
    return `its trailer holds a number past ${MAX_INT}`;
  return { trailer: trailer.entries, objects };
}

/** qpdf reads the numbers of a cross-reference section into 32-bit ints. */
const MAX_INT = 2 ** 31 - 1;

/**
 * A cross-reference stream: an object (numbered 1 or more) whose dictionary says /Type /XRef, with a /Size,
 * a /W of three field widths, whole numbers in range, a direct /Length that ends at `endstream`, and data that
 * inflates to entries whose objects (type 1) are where they say.
 */
function checkXrefStream(bytes: Uint8Array, offset: number): Section {
  const text = decoder.decode(bytes.subarray(offset, offset + 4096));
  const where = `the cross-reference stream at byte ${offset}`;
  const head = /^\s*(\d+)\s+\d+\s+obj\s*(?=<<)/.exec(text);
  const read = head && readPdfDictionary(bytes, offset + head[0].length);
  if (read && 'error' in read) return unreadable(`the dictionary of ${where}`, read);
  const keyword = read && /^\s*stream(?:\r\n|\n|\r)/.exec(decoder.decode(bytes.subarray(read.end, read.end + 32)));
  const number = head?.[1] ?? '0';
  const dictionary = read ? decoder.decode(bytes.subarray(offset + head[0].length, read.end)) : '';
  // Entries as qpdf takes them: the last of a key written twice wins.
  const type = read?.entries.get('Type');
  if (!keyword || !read || type?.kind !== 'name' || type.name !== 'XRef')
    return `startxref points at an object (byte ${offset}) that is not a cross-reference stream`;
  if (Number(number) < 1) return `${where} is numbered 0`;
  const integer = (key: string) => {
    const value = wholeNumber(read.entries.get(key) ?? { kind: 'keyword', word: 'null' });
    return value >= 0 && value <= MAX_INT ? value : undefined;
  };
  const size = integer('Size');
  const length = integer('Length');
  const w = read.entries.get('W');
  const widths = w?.kind === 'array' ? w.items.map(wholeNumber) : [];
  if (size === undefined) return `${where} has no whole /Size in range`;
  if (widths.length !== 3 || widths.some((width) => width < 0 || width > 8))
    return `${where} has no /W of three field widths`;
  if (length === undefined) return `${where} has no direct /Length`;
  if (largeNumber(dictionary)) return `${where} holds a number past ${MAX_INT}`;
  const dataStart = read.end + keyword[0].length;
  if (!/^\s*endstream\b/.test(decoder.decode(bytes.subarray(dataStart + length, dataStart + length + 32))))
    return `${where} does not end where its /Length says`;
  const entries = xrefStreamEntries(bytes.subarray(dataStart, dataStart + length), dictionary, widths);
  if (typeof entries === 'string') return `${where} ${entries}`;
  if (entries === undefined) return { trailer: read.entries, objects: undefined };
  const indexValue = read.entries.get('Index');
  const index =
    indexValue === undefined ? [0, size] : indexValue.kind === 'array' ? indexValue.items.map(wholeNumber) : [-1];
  if (index.length % 2 !== 0 || index.some((n) => n < 0))
    return `${where} has an /Index that is not pairs of whole numbers`;
  // qpdf reads exactly the rows /Index lists: fewer bytes fail, more are ignored (with them, what they list).
  let listed = 0;
  for (let pair = 0; pair + 1 < index.length; pair += 2) listed += index[pair + 1] ?? 0;
  const rowBytes = widths.reduce((sum, w) => sum + w, 0);
  if (entries.bytes !== listed * rowBytes)
    return `${where} holds ${entries.bytes} bytes of entries where its /Index lists ${listed} of ${rowBytes} bytes`;
  const objects: number[] = [];
  let row = 0;
  for (let pair = 0; pair + 1 < index.length; pair += 2) {
    for (let i = 0; i < (index[pair + 1] ?? 0); i++, row++) {
      const fields = entries.rows[row];
      if (!fields) return `${where} has fewer entries than its /Index lists`;
      const [type = 0, field2 = 0, field3 = 0] = fields;
      const object = (index[pair] ?? 0) + i;
      // qpdf knows types 0-2 and reads object stream numbers, indexes and generations into 32-bit ints.
      if (type > 2) return `${where} gives object ${object} the entry type ${type}, which no reader knows`;
      if (type !== 0 && (field3 > MAX_INT || (type === 2 && field2 > MAX_INT)))
        return `${where} gives object ${object} a field past ${MAX_INT}`;
      if (type === 1 && !objectAt(bytes, field2, object, field3))
        return `${where} puts object ${object} at byte ${field2}, where that object is not`;
      if (type !== 0) objects.push(object);
    }
  }
  return { trailer: read.entries, objects };
}

/** Inflated bytes of a cross-reference stream read at most (a real one is a few bytes per object). */
const MAX_XREF_STREAM = 64 * 1024 * 1024;

/**
 * The stream's rows as [type, field 2, field 3] (type 1 when /W gives the type no bytes), undone from Flate and
 * PNG predictors; undefined for what is not checked here (another filter, a bomb).
 */
function xrefStreamEntries(
  data: Uint8Array,
  dictionary: string,
  widths: number[],
): { rows: number[][]; bytes: number } | string | undefined {
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
  return { rows: entries, bytes: rows.length };
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

/** Whether `N G obj` for object `number`, `generation` starts at `offset` (whitespace before it is tolerated, as readers do). */
function objectAt(bytes: Uint8Array, offset: number, number: number, generation: number): boolean {
  let at = offset;
  while (at < bytes.length && isSpace(bytes[at] as number)) at++;
  let read = 0;
  const digitsFrom = at;
  while (at < bytes.length && isDigit(bytes[at] as number)) read = read * 10 + ((bytes[at++] as number) - 48);
  if (at === digitsFrom || read !== number || !isSpace(bytes[at] ?? 0)) return false;
  // The generation and the keyword: a short, plain stretch.
  const found = /^\s+(\d+)\s+obj\b/.exec(decoder.decode(bytes.subarray(at, at + 24)));
  return found !== null && Number(found[1]) === generation;
}

function isDigit(byte: number): boolean {
  return byte >= 48 && byte <= 57;
}
