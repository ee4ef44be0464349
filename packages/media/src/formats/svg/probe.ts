import type { SvgInfo } from '../../types.js';
import { MediaError } from '../../errors.js';
import { decodeSvgText, locateSvgRoot } from './text.js';

/** Enough text for any real prolog plus the root start tag. */
const SVG_PROBE_LIMIT = 1024 * 1024;
/** CSS pixels per unit (96 px per inch). `em`/`ex` assume the default 16 px font. */
const PX_PER_UNIT: Record<string, number> = {
  '': 1,
  px: 1,
  pt: 96 / 72,
  pc: 16,
  in: 96,
  cm: 96 / 2.54,
  mm: 96 / 25.4,
  q: 96 / 101.6,
  em: 16,
  ex: 8,
};
/** Browsers size a replaced element with no intrinsic size at 300x150. */
const DEFAULT_WIDTH = 300;
const DEFAULT_HEIGHT = 150;

/** The intrinsic size an SVG asks for, in CSS pixels, from its root's width/height/viewBox. */
export interface SvgSize {
  width: number;
  height: number;
  viewBox?: { x: number; y: number; width: number; height: number };
}

/**
 * SVG header facts: the root `<svg>` start tag's width and height (absolute units converted to px),
 * falling back to the viewBox (also for percentages, and to complete one missing side by its aspect ratio),
 * then to 300x150 like browsers.
 */
export function probeSvg(bytes: Uint8Array): SvgInfo {
  const size = readSvgSize(bytes);
  return {
    mediaType: 'image/svg+xml',
    bytes: bytes.length,
    width: Math.max(1, Math.round(size.width)),
    height: Math.max(1, Math.round(size.height)),
    orientation: 1,
    frames: 1,
    hasAlpha: true,
  };
}

export function readSvgSize(bytes: Uint8Array): SvgSize {
  const text = decodeSvgText(bytes, SVG_PROBE_LIMIT);
  const root = locateSvgRoot(text);
  if (root === undefined) throw invalid('no <svg> root element was found after the XML prolog');
  const attributes = readStartTagAttributes(text, root);
  const viewBox = parseViewBox(attributes.get('viewBox'));
  const width = parseLength(attributes.get('width'));
  const height = parseLength(attributes.get('height'));
  const ratio = viewBox ? viewBox.width / viewBox.height : undefined;

  if (width !== undefined && height !== undefined) return { width, height, viewBox };
  if (width !== undefined && ratio) return { width, height: width / ratio, viewBox };
  if (height !== undefined && ratio) return { width: height * ratio, height, viewBox };
  if (viewBox) return { width: viewBox.width, height: viewBox.height, viewBox };
  return { width: width ?? DEFAULT_WIDTH, height: height ?? DEFAULT_HEIGHT };
}

/** Parses `name="value"` pairs of the start tag at `start` (which begins with `<svg`). */
function readStartTagAttributes(text: string, start: number): Map<string, string> {
  const attributes = new Map<string, string>();
  let i = start + 1 + (/^[^\s/>]+/.exec(text.slice(start + 1, start + 256))?.[0].length ?? 0);
  for (;;) {
    while (i < text.length && /\s/.test(text[i]!)) i++;
    if (i >= text.length) throw invalid('the <svg> start tag is never closed');
    if (text[i] === '>' || text.startsWith('/>', i)) return attributes;
    const nameMatch = /^[^\s=/>"']+/.exec(text.slice(i, i + 256));
    if (!nameMatch)
      throw invalid(
        `unexpected character U+${(text.codePointAt(i) ?? 0).toString(16).toUpperCase().padStart(4, '0')} in the <svg> start tag`,
      );
    const name = nameMatch[0];
    i += name.length;
    while (i < text.length && /\s/.test(text[i]!)) i++;
    if (text[i] !== '=') throw invalid(`attribute ${name} of <svg> has no value`);
    i++;
    while (i < text.length && /\s/.test(text[i]!)) i++;
    const quote = text[i];
    if (quote !== '"' && quote !== "'") throw invalid(`attribute ${name} of <svg> is not quoted`);
    const end = text.indexOf(quote, i + 1);
    if (end < 0) throw invalid(`attribute ${name} of <svg> is never closed`);
    if (!attributes.has(name)) attributes.set(name, text.slice(i + 1, end));
    i = end + 1;
  }
}

/** A positive absolute length in px; undefined for missing, `auto`, percentages, zero or unparseable values. */
function parseLength(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const match = /^\s*([+]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)\s*([a-zA-Z%]*)\s*$/.exec(value);
  if (!match) return undefined;
  const scale = PX_PER_UNIT[match[2]!.toLowerCase()];
  const length = Number(match[1]) * (scale ?? NaN);
  return Number.isFinite(length) && length > 0 ? length : undefined;
}

function parseViewBox(value: string | undefined): SvgSize['viewBox'] {
  if (value === undefined) return undefined;
  const numbers = value
    .trim()
    .split(/[\s,]+/)
    .map(Number);
  const [x, y, width, height] = numbers;
  if (x === undefined || y === undefined || width === undefined || height === undefined || numbers.length !== 4)
    return undefined;
  if (numbers.some((n) => !Number.isFinite(n))) return undefined;
  return width > 0 && height > 0 ? { x, y, width, height } : undefined;
}

function invalid(problem: string): MediaError {
  return new MediaError(
    'E_SVG_INVALID',
    `The SVG cannot be read: ${problem}. Check that the file is a complete SVG document.`,
  );
}
