import { detect, MediaError, pdfText } from '@glimpse/media';
import { parsePageRange } from '../tools/pdf-pages.js';
import { parseArgs, positiveInteger, stringFlag } from './args.js';
import { UsageError, type Command } from './command.js';
import { loadOptionalDecoders } from './load-optional-decoders.js';
import { MAX_FILE_BYTES_USAGE, readInputFile } from './read-input.js';

const usage = `Usage: glimpse text FILE.pdf [--pages RANGE] [--json] [--timeout-ms N] [--max-file-bytes N]

Prints the text layer of a PDF (read by PDFium, in WASM), page by page. Each page's text ends with a
form feed (\\f), as pdftotext does. A scanned page has no text layer: it prints nothing, and stderr says
so; render it with \`glimpse process FILE --page N -o page.png\` instead.

Options:
  --pages RANGE      pages like "1-3", "2,5-7" or "4-" (default: all, at most 1000)
  --json             print {"pageCount": N, "pages": [{"page": N, "text": "…"}]} instead
  --timeout-ms N     stop after N ms (default 30000)
${MAX_FILE_BYTES_USAGE}
  -h, --help         show this help

Exit codes: 0 ok; 1 the file cannot be read (password-protected E_PDF_ENCRYPTED, damaged E_CORRUPT, not a
PDF E_UNSUPPORTED, …; one JSON line on stderr: {"error":{"code":"E_…","message":"…"}}); 2 usage.`;

export const textCommand: Command = {
  usage,
  async run(args) {
    await loadOptionalDecoders();
    const { positionals, flags } = parseArgs(args, {
      values: ['--pages', '--timeout-ms', '--max-file-bytes'],
      booleans: ['--json'],
    });
    if (positionals.length !== 1) throw new UsageError('expected exactly one FILE');
    const range = stringFlag(flags, '--pages');
    const timeoutMs = positiveInteger(flags, '--timeout-ms');
    const bytes = await readInputFile(positionals[0]!, flags);
    const type = detect(bytes);
    if (type !== 'application/pdf') {
      throw new MediaError(
        'E_UNSUPPORTED',
        `glimpse text reads the text layer of a PDF, and ${positionals[0]} is ${type ?? 'not a format glimpse knows'}: use glimpse process for images and SVGs.`,
      );
    }
    // A range like "4-" needs the page count first.
    const pages =
      range === undefined ? undefined : parsePageRange(range, (await pdfText(bytes, { pages: [] })).pageCount);
    const text = await pdfText(bytes, { ...(pages ? { pages } : {}), ...(timeoutMs ? { timeoutMs } : {}) });
    if (flags.has('--json')) {
      process.stdout.write(`${JSON.stringify(text)}\n`);
    } else {
      for (const page of text.pages) process.stdout.write(`${page.text}${page.text === '' ? '' : '\n'}\f`);
    }
    const blank = text.pages.filter((page) => page.text.trim() === '').map((page) => page.page);
    if (blank.length > 0) {
      process.stderr.write(
        `glimpse text: page${blank.length === 1 ? '' : 's'} ${blank.join(', ')} of ${text.pageCount} ha${blank.length === 1 ? 's' : 've'} no text layer (a scan or a drawing); see ${blank.length === 1 ? 'it' : 'them'} with glimpse process FILE --page N -o page.png\n`,
      );
    }
    return 0;
  },
};
