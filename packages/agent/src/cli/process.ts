import { detect, isPresetName, PRESET_NAMES, renderPdfPage, type Region } from '@glimpse/media';
import { processWithFonts } from '../tools/svg-fonts.js';
import { parseArgs, positiveInteger, stringFlag } from './args.js';
import { UsageError, type Command } from './command.js';
import { loadOptionalDecoders } from './load-optional-decoders.js';
import { readFonts } from './read-fonts.js';
import { systemFontsFor } from './system-fonts.js';
import { FILE_USAGE, MAX_FILE_BYTES_USAGE, readInputFile } from './read-input.js';
import { extensionWarning, outputTarget, writeOutput } from './write-output.js';

const usage = `Usage: glimpse process FILE [-o OUT] [--page N] [--region X,Y,W,H] [--max-edge N] [--max-bytes N]
                       [--preset NAME] [--max-input-pixels N] [--max-file-bytes N] [--timeout-ms N]
                       [--font FILE]... [--no-system-fonts] [--keep-metadata]

Fits an image, SVG or PDF for an LLM provider: the input untouched when it already fits; otherwise
decoded, turned upright (EXIF), resized, re-encoded and fitted to the byte limit. With --page, one page
of a PDF is rendered instead (PDFium, in WASM): its longer side at the preset's edge, PNG for text and
drawings, JPEG for scans and photos, fitted to the byte limit like an image.
${FILE_USAGE}

Options:
  -o, --output OUT   write the result to OUT (without it, only the summary is printed); - writes the
                     bytes to stdout and the summary to stderr. The bytes are in the summary's
                     mediaType, whatever OUT's extension (a PNG may become JPEG to fit --max-bytes):
                     a warning on stderr says when the two disagree
  --page N           render page N of a PDF (from 1) to an image, for models without PDF input or to
                     see one page sharply
  --region X,Y,W,H   only this part: X, Y, width and height in pixels of the upright image (of a
                     --page: in the page's points), cut at full resolution and then fitted; the
                     summary's region repeats it
  --timeout-ms N     give up after N ms with E_TIMEOUT (default: no limit for images and SVGs;
                     30000 for drawing a --page)
  --max-edge N       longest side in pixels (default: the preset's)
  --max-bytes N      largest output in bytes, PDFs included (default: the preset's)
  --max-input-pixels N  refuse inputs whose header declares more pixels (default 100000000)
${MAX_FILE_BYTES_USAGE}
  --font FILE        a TTF, OTF or TTC font for SVG text, tried before the bundled DejaVu Sans subset
                     (Latin, Greek, basic Cyrillic); give it once per font. Text no font covers is left
                     out, and the summary's warnings say which scripts (W_MISSING_GLYPHS)
  --no-system-fonts  draw SVG text only with --font and the bundled face; by default, text they lack
                     (CJK labels, Arabic, …) is drawn with a system font that has it (fontconfig's fc-list)
  --keep-metadata    send an image that already fits with its Exif, XMP, IPTC and comments (its GPS
                     position included); by default they are cut out, losslessly
  --preset NAME      limits preset: ${PRESET_NAMES.join(', ')} (default: portable —
                     2000 px and 3,750,000 bytes, PNG/JPEG/WebP: safe on every hosted provider;
                     for Ollama, --preset ollama); --provider NAME is the same option, under its
                     earlier name
  -h, --help         show this help

Prints one JSON object: mediaType, width, height, bytes, pages (PDFs), original {mediaType, width,
height, bytes, orientation, frames, pages}, resized, reencoded, steps, warnings, output; with --page
also page; with --region also region.
Exit codes: 0 ok; 1 the file cannot be made sendable (one JSON line on stderr:
{"error":{"code":"E_…","message":"…"}}); 2 usage.`;

export const processCommand: Command = {
  usage,
  async run(args) {
    await loadOptionalDecoders();
    const { positionals, flags, lists } = parseArgs(args, {
      values: [
        '--output',
        '--page',
        '--region',
        '--timeout-ms',
        '--max-edge',
        '--max-bytes',
        '--preset',
        '--max-input-pixels',
        '--max-file-bytes',
      ],
      booleans: ['--no-system-fonts', '--keep-metadata'],
      lists: ['--font'],
      aliases: { '-o': '--output', '--provider': '--preset' },
    });
    if (positionals.length !== 1) throw new UsageError('expected exactly one FILE');
    const preset = stringFlag(flags, '--preset');
    if (preset !== undefined && !isPresetName(preset)) {
      throw new UsageError(`--preset must be one of ${PRESET_NAMES.join(', ')}, got ${JSON.stringify(preset)}`);
    }
    const maxEdge = positiveInteger(flags, '--max-edge');
    const maxBytes = positiveInteger(flags, '--max-bytes');
    const maxInputPixels = positiveInteger(flags, '--max-input-pixels');
    const page = positiveInteger(flags, '--page');
    const region = regionFlag(stringFlag(flags, '--region'));
    const timeoutMs = positiveInteger(flags, '--timeout-ms');
    const output = stringFlag(flags, '--output');
    const target = outputTarget(output);
    const input = await readInputFile(positionals[0]!, flags);
    const type = detect(input);
    if (page !== undefined && type !== 'application/pdf') {
      throw new UsageError(
        `--page N renders a page of a PDF, and ${positionals[0]} is ${type ?? 'not a PDF'}: leave out --page`,
      );
    }
    const fonts = await readFonts(lists.get('--font') ?? []);
    const options = {
      ...(fonts.length > 0 ? { fonts } : {}),
      ...(preset !== undefined ? { preset } : {}),
      ...(maxEdge !== undefined ? { maxEdge } : {}),
      ...(maxBytes !== undefined ? { maxBytes } : {}),
      ...(maxInputPixels !== undefined ? { maxInputPixels } : {}),
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      ...(flags.has('--keep-metadata') ? { keepMetadata: true } : {}),
      ...(region !== undefined ? { region } : {}),
    };
    // SVG text the fonts lack is drawn once more with a system font that has it (the file tools do the same).
    const svgFonts = { fonts, ...(flags.has('--no-system-fonts') ? {} : { fallbackFonts: systemFontsFor }) };
    const result =
      page === undefined ? await processWithFonts(input, options, svgFonts) : await renderPdfPage(input, page, options);
    if (output !== undefined) {
      await writeOutput(target.toStdout ? '-' : output, result.data);
      const warning = output === '-' ? undefined : extensionWarning(output, result.mediaType);
      if (warning !== undefined) process.stderr.write(`${warning}\n`);
    }
    if (result.warnings.some((warning) => warning.code === 'W_MISSING_GLYPHS'))
      process.stderr.write('glimpse: some SVG text was left out; --font FILE adds a font that has its characters\n');
    const { data: _data, ...summary } = result;
    target.summary.write(
      `${JSON.stringify({ ...summary, ...(page !== undefined ? { page } : {}), output: output ?? null })}\n`,
    );
    return 0;
  },
};

/** `--region X,Y,W,H`: four whole numbers, the width and height at least 1. */
function regionFlag(value: string | undefined): Region | undefined {
  if (value === undefined) return undefined;
  const parts = value.split(',').map((part) => part.trim());
  const numbers = parts.map((part) => (/^\d+$/.test(part) ? Number(part) : Number.NaN));
  const [x, y, width, height] = numbers;
  if (
    numbers.length !== 4 ||
    x === undefined ||
    y === undefined ||
    width === undefined ||
    height === undefined ||
    numbers.some((n) => !Number.isSafeInteger(n)) ||
    width < 1 ||
    height < 1
  )
    throw new UsageError(
      `--region takes X,Y,W,H: four whole numbers in pixels of the upright image, W and H at least 1 (for example 0,0,800,600), got ${JSON.stringify(value)}`,
    );
  return { x, y, width, height };
}
