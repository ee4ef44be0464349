import type { ProcessResult } from '@glimpse/media';
import { uprightOriginal } from '../results/notes.js';
import { mediaLabel } from './describe-binary.js';
import { formatBytes } from './format-bytes.js';

/** "all 12 pages" or "pages 2, 5 of 12": which pages of a PDF went out (counted from 1). */
export function describeSentPages(pages: readonly number[], total: number): string {
  return pages.length === total ? `all ${total} pages` : `pages ${pages.join(', ')} of ${total}`;
}

/** The line `view_file` puts above what it attached: type, size, bytes, and the original when it was changed. */
export function attachedSummary(name: string, result: ProcessResult, pagesNote: string | undefined): string {
  if (result.mediaType === 'application/pdf') {
    return `${name}: PDF, ${pagesNote ?? `${result.pages ?? '?'} page${result.pages === 1 ? '' : 's'}`}, ${formatBytes(result.bytes)} attached.`;
  }
  const sent = mediaLabel(result.mediaType).replace(/ image$/, '');
  const from = result.original;
  const upright = uprightOriginal(result);
  const changed = result.reencoded
    ? ` (original ${mediaLabel(from.mediaType)} ${upright.width}x${upright.height}, ${formatBytes(from.bytes)})`
    : '';
  return `${name}: ${sent} ${result.width}x${result.height}, ${formatBytes(result.bytes)} attached${changed}.`;
}
