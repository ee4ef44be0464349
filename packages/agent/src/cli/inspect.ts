import { probe } from '@glimpse/media';
import { parseArgs } from './args.js';
import { UsageError, type Command } from './command.js';
import { loadOptionalDecoders } from './load-optional-decoders.js';
import { FILE_USAGE, MAX_FILE_BYTES_USAGE, readInputFile } from './read-input.js';

const usage = `Usage: glimpse inspect FILE [--max-file-bytes N]

Prints one JSON object with what the file's header says, without decoding pixels:
  mediaType    detected from the bytes (never from the file name)
  width        stored width in pixels (PDF: first page width in points)
  height       stored height in pixels (PDF: first page height in points)
  bytes        file size
  orientation  EXIF orientation 1-8 (1 = upright)
  frames       frames in an animation (1 for stills)
  hasAlpha     whether the format declares transparency
  pages        PDFs and TIFFs only: page count (a TIFF is converted from its first page)
  encrypted    PDFs only: whether it is encrypted
${FILE_USAGE}

Options:
${MAX_FILE_BYTES_USAGE}

Exit codes: 0 ok; 1 unreadable or unsupported file (one JSON error line on stderr); 2 usage.`;

export const inspectCommand: Command = {
  usage,
  async run(args) {
    await loadOptionalDecoders();
    const { positionals, flags } = parseArgs(args, { values: ['--max-file-bytes'] });
    if (positionals.length !== 1) throw new UsageError('expected exactly one FILE');
    const info = await probe(await readInputFile(positionals[0]!, flags));
    const summary: Record<string, unknown> = {
      mediaType: info.mediaType,
      width: info.width ?? null,
      height: info.height ?? null,
      bytes: info.bytes,
      orientation: info.orientation,
      frames: info.frames,
      hasAlpha: info.hasAlpha ?? false,
    };
    if (info.mediaType === 'application/pdf' || info.mediaType === 'image/tiff') summary.pages = info.pages ?? null;
    if (info.mediaType === 'application/pdf') summary.encrypted = info.encrypted ?? false;
    process.stdout.write(`${JSON.stringify(summary)}\n`);
    return 0;
  },
};
