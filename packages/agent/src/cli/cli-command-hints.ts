// Some refusals end in advice for a developer calling the library (`pages: [1, 2, …]`, `renderPdfPage`, "send a
// page range"): at a shell the way out is a flag or another glimpse command, and which one depends on the command
// that ran. Each hint here is chosen from the error's code and details (never its wording), keeps the facts the
// library's message states, and replaces its advice with what that command offers.
import { usageFlags } from './cli-error-hint.js';

type Failure = { code: string; details: Record<string, unknown>; message: string };

function asFailure(error: unknown): Failure | undefined {
  if (!(error instanceof Error) || !('code' in error) || typeof error.code !== 'string') return undefined;
  const details =
    'details' in error && typeof error.details === 'object' && error.details !== null ? error.details : {};
  return { code: error.code, details: details as Record<string, unknown>, message: error.message };
}

const number = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

/** The message `glimpse <command>` prints for `error` in place of the library's, or undefined to keep that. */
export function commandHint(
  error: unknown,
  { name: command, usage }: { name: string; usage: string },
): string | undefined {
  const failure = asFailure(error);
  if (failure === undefined) return undefined;
  const { code, details } = failure;
  const pages = number(details['pages']);
  if (code === 'E_TOO_LARGE' && command === 'text' && pages !== undefined) {
    const maxPages = number(details['maxPages']);
    if (maxPages !== undefined)
      return `Reading ${pages} pages at once is over the limit of ${maxPages}. Read them in parts with --pages: --pages 1-${maxPages}, then --pages ${maxPages + 1}-${Math.min(pages, 2 * maxPages)}${pages > 2 * maxPages ? ', …' : ''}.`;
  }
  if (code === 'E_TOO_LARGE' && command === 'process') {
    const maxPdfPages = number(details['maxPdfPages']);
    if (pages !== undefined && maxPdfPages !== undefined)
      return `The PDF has ${pages} pages; the limit is ${maxPdfPages}. Render the pages you need one at a time as images (glimpse process FILE --page N -o page-N.png), or read its text (glimpse text FILE --pages 1-3).`;
    const bytes = number(details['bytes']);
    const maxPdfBytes = number(details['maxPdfBytes']);
    if (bytes !== undefined && maxPdfBytes !== undefined)
      return `The PDF is ${bytes} bytes; the limit is ${maxPdfBytes}. Render the pages you need one at a time as images (--page N), send a compressed copy, or raise --max-bytes if the provider takes larger PDFs.`;
  }
  if (code === 'E_INVALID_OPTIONS' && command === 'tiles' && details['option'] === 'tiles') {
    if (details['mediaType'] === 'application/pdf')
      return 'tiles cuts raster images; this is a PDF. Render the page first, then tile that image: glimpse process FILE --page N -o page.png, then glimpse tiles page.png -o DIR.';
    if (details['mediaType'] === 'image/svg+xml')
      return 'tiles cuts raster images; this is an SVG. Render it to PNG first, then tile that image: glimpse process FILE -o drawing.png, then glimpse tiles drawing.png -o DIR.';
  }
  // A --pages RANGE refused by the page-range parser: its message names the argument as the tools call it.
  const spec = details['pages'];
  if (
    code === 'E_INVALID_ARGUMENTS' &&
    typeof spec === 'string' &&
    failure.message.startsWith('pages ') &&
    usageFlags(usage).has('--pages')
  )
    return `--pages ${failure.message.slice('pages '.length)}`;
  return undefined;
}
