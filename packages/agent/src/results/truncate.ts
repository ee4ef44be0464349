import type { Part } from '../types.js';

export interface TruncateOptions {
  /** Most characters of tool text kept, over all text parts together. Default 50,000 (about 12k tokens). */
  maxChars?: number;
  /** `head-and-tail` (default) keeps the start and the end, where errors and summaries sit; `head` keeps the start. */
  keep?: 'head' | 'head-and-tail';
}

export const DEFAULT_TRUNCATE: Required<TruncateOptions> = { maxChars: 50_000, keep: 'head-and-tail' };

// Never cut between the halves of a surrogate pair.
function safeCut(text: string, at: number): number {
  const code = text.charCodeAt(at - 1);
  return at > 0 && at < text.length && code >= 0xd800 && code <= 0xdbff ? at - 1 : at;
}

/**
 * Shortens long tool text and says so where the cut is. Touches text parts only: images and PDFs keep their
 * place and their bytes, and are never turned into text.
 */
export function truncateToolText(parts: readonly Part[], options: TruncateOptions = {}): Part[] {
  const { maxChars, keep } = { ...DEFAULT_TRUNCATE, ...options };
  const total = parts.reduce((sum, part) => sum + (part.type === 'text' ? part.text.length : 0), 0);
  if (total <= maxChars) return [...parts];
  const headEnd = keep === 'head' ? maxChars : Math.ceil(maxChars / 2);
  const tailStart = keep === 'head' ? total : total - Math.floor(maxChars / 2);
  const marker = `\n[… ${(tailStart - headEnd).toLocaleString('en-US')} characters of tool output cut here …]\n`;
  const out: Part[] = [];
  let position = 0;
  let marked = false;
  for (const part of parts) {
    if (part.type !== 'text') {
      out.push(part);
      continue;
    }
    const start = position;
    position += part.text.length;
    const headLength = Math.max(0, Math.min(part.text.length, headEnd - start));
    const tailFrom = Math.max(0, Math.min(part.text.length, tailStart - start));
    const head = part.text.slice(0, safeCut(part.text, headLength));
    const tail = part.text.slice(safeCut(part.text, tailFrom));
    const cutHere = !marked && position > headEnd;
    if (cutHere) marked = true;
    const text = head + (cutHere ? marker : '') + tail;
    if (text !== '') out.push({ type: 'text', text });
  }
  return out;
}
