// The one list of media types the core knows, each a record written in its format's folder (format.ts
// there). Detection tries them in this order; probe, process, the integrity checks, the error messages and
// the docs' format table (npm run docs) all read them here rather than keep lists of their own.
import { MediaError } from '../errors.js';
import type { MediaType } from '../types.js';
import { avif } from './avif/format.js';
import { bmp } from './bmp/format.js';
import type { Format, FormatWriter, OutputType } from './format.js';
import { gif } from './gif/format.js';
import { heic, heif } from './heif/format.js';
import { ico } from './ico/format.js';
import { jpeg } from './jpeg/format.js';
import { jxl } from './jxl/format.js';
import { pdf } from './pdf/format.js';
import { png } from './png/format.js';
import { svg } from './svg/format.js';
import { tiff } from './tiff/format.js';
import { webp } from './webp/format.js';

/**
 * Every format, in the order detection tries them (and messages list them): fixed magic numbers first, PDF
 * (a header anywhere in the first 1024 bytes) and SVG (found by reading past a prolog) last.
 */
export const FORMATS: readonly Format[] = [png, jpeg, gif, webp, bmp, tiff, ico, avif, heic, heif, jxl, pdf, svg];

/** The record of `type` (every MediaType has one). */
export function formatOf(type: MediaType): Format {
  const format = FORMATS.find((candidate) => candidate.mediaType === type);
  if (!format) throw new Error(`no format record for ${type}`);
  return format;
}

/** The format `bytes` are in, from magic bytes alone (a file name is never consulted); undefined when none matches. */
export function detectFormat(bytes: Uint8Array): Format | undefined {
  return FORMATS.find((format) => format.matches(bytes));
}

/** The format `bytes` are in; unknown bytes are `E_UNSUPPORTED`, with the formats glimpse reads. */
export function recognise(bytes: Uint8Array): Format {
  const format = detectFormat(bytes);
  if (format) return format;
  const readable = `glimpse reads ${readableFormats()}`;
  if (bytes.length === 0) {
    throw new MediaError('E_UNSUPPORTED', `The input is empty (0 bytes). ${readable}.`, { bytes: 0 });
  }
  const head = Array.from(bytes.subarray(0, 8), (byte) => byte.toString(16).padStart(2, '0')).join(' ');
  const printable = Array.from(bytes.subarray(0, 8), (byte) =>
    byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : '.',
  ).join('');
  throw new MediaError(
    'E_UNSUPPORTED',
    `Unrecognised file format: it starts with bytes ${head} (${JSON.stringify(printable)}). ${readable}; convert the file to one of these.`,
    { bytes: bytes.length, head },
  );
}

/** How a list names a format: by its extensions where they are its name (ICO/CUR), else by its label. */
export function listName(format: Format): string {
  const names = format.extensions.map((extension) => extension.toUpperCase());
  return names[0] === format.label ? names.join('/') : format.label;
}

/**
 * The formats glimpse reads, as a message lists them: images, then drawings, then documents ("PNG, JPEG, …,
 * HEIC/HEIF (with @glimpse/heif), SVG and PDF"). Types one decoder package adds are named together, with it.
 */
export function readableFormats(): string {
  const names: string[] = [];
  let packaged: { name: string; types: string[] } | undefined;
  const read = (['raster', 'svg', 'pdf'] as const).flatMap((kind) => FORMATS.filter((format) => format.kind === kind));
  for (const format of read) {
    const pkg = format.kind === 'raster' ? format.decoderPackage?.name : undefined;
    if (pkg && packaged?.name === pkg) {
      packaged.types.push(listName(format));
      names[names.length - 1] = `${packaged.types.join('/')} (with ${pkg})`;
      continue;
    }
    packaged = pkg ? { name: pkg, types: [listName(format)] } : undefined;
    names.push(pkg ? `${listName(format)} (with ${pkg})` : listName(format));
  }
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** How the core writes each output type. */
export function writerOf(type: OutputType): FormatWriter {
  const format = formatOf(type);
  if (format.kind !== 'raster' || !format.writer) throw new Error(`no writer for ${type}`);
  return format.writer;
}
