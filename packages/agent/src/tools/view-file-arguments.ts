import type { Region } from '@glimpse/media';
import { FileError } from '../fs/file-error.js';
import type { ToolDefinition } from '../types.js';
import { optionalString, PATH_ARGUMENT, refuseUndeclared, requiredString } from './tool-arguments.js';

/** How `as` may ask to show a PDF. */
export const PDF_FORMS = ['document', 'images', 'text'] as const;
export type PdfForm = (typeof PDF_FORMS)[number];

export const VIEW_FILE_TOOL_DEFINITION: ToolDefinition = {
  name: 'view_file',
  description:
    'Look at an image (PNG, JPEG, GIF, WebP, BMP, TIFF, ICO, AVIF; HEIC where the host has its decoder), an SVG or a PDF. The file is fitted to what you can take ' +
    '(resized, turned upright, converted) and attached to the result. A PDF comes as a document where you read PDFs, ' +
    'otherwise as its text plus images of its first pages; pages selects a range, as chooses the form. Use read for text files.',
  parameters: {
    type: 'object',
    properties: {
      path: PATH_ARGUMENT,
      pages: {
        type: 'string',
        description:
          'PDFs only: the pages, like "1-3" or "2,5-7". Default: all pages as a document; the first pages as text or images.',
      },
      as: {
        type: 'string',
        enum: [...PDF_FORMS],
        description:
          'PDFs only: "document" attaches the PDF (where you read PDFs); "images" renders pages as images (to read a chart or a scan; up to 10 per call); "text" gives the text of each page.',
      },
      region: {
        type: 'object',
        description:
          'Look closer at one part: x, y, width, height in pixels of the original image (the size the notes give; for a PDF, points of the one page that pages names, default the first). The part is cut at full resolution and shown as large as you can take it; the note maps its coordinates back.',
        properties: {
          x: { type: 'integer', minimum: 0 },
          y: { type: 'integer', minimum: 0 },
          width: { type: 'integer', minimum: 1 },
          height: { type: 'integer', minimum: 1 },
        },
        required: ['x', 'y', 'width', 'height'],
        additionalProperties: false,
      },
      tiles: {
        type: 'boolean',
        description:
          'Images only: the whole image as slices at the size you see best, each with its place in the original, in reading order, within a budget (each slice costs an image). For a tall page or a large screen capture whose text is too small to read whole.',
      },
    },
    required: ['path'],
    additionalProperties: false,
  },
};

/** A `view_file` call's arguments, checked: models send anything. */
export interface ViewArguments {
  path: string;
  /** The `pages` argument as given ("1-3", "2,5-7"). */
  pages?: string;
  as?: PdfForm;
  /** A part of the image (of a PDF page: in points), cut at full resolution. */
  region?: Region;
  /** The whole image in slices at the model's working size. */
  tiles?: boolean;
}

export function readViewArguments(args: Record<string, unknown>): ViewArguments {
  refuseUndeclared(args, VIEW_FILE_TOOL_DEFINITION);
  const path = requiredString(args, 'path', 'view_file');
  const pages = optionalString(args, 'pages', 'view_file');
  const as = optionalString(args, 'as', 'view_file');
  const form = PDF_FORMS.find((candidate) => candidate === as);
  if (as !== undefined && form === undefined)
    throw new FileError(
      'E_INVALID_ARGUMENTS',
      `view_file needs "as" to be one of ${PDF_FORMS.map((f) => `"${f}"`).join(', ')}, got ${JSON.stringify(as)}.`,
      { argument: 'as' },
    );
  const region = readRegion(args.region);
  const tiles = readTiles(args.tiles);
  if (region !== undefined && tiles === true)
    throw new FileError('E_INVALID_ARGUMENTS', 'view_file takes region or tiles, not both: choose one.', {
      argument: 'tiles',
    });
  return {
    path,
    ...(pages !== undefined && { pages }),
    ...(form !== undefined && { as: form }),
    ...(region !== undefined && { region }),
    ...(tiles !== undefined && { tiles }),
  };
}

/** `region` as `{x, y, width, height}` of whole numbers (numbers sent as strings too: several models do). */
function readRegion(value: unknown): Region | undefined {
  if (value === undefined || value === null) return undefined;
  const field = (name: 'x' | 'y' | 'width' | 'height', least: number): number | undefined => {
    const raw = typeof value === 'object' ? (value as Record<string, unknown>)[name] : undefined;
    const number = typeof raw === 'string' && /^\d+$/.test(raw.trim()) ? Number(raw) : raw;
    return typeof number === 'number' && Number.isSafeInteger(number) && number >= least ? number : undefined;
  };
  const [x, y, width, height] = [field('x', 0), field('y', 0), field('width', 1), field('height', 1)];
  const extra =
    typeof value === 'object' ? Object.keys(value).filter((key) => !['x', 'y', 'width', 'height'].includes(key)) : [];
  if (x === undefined || y === undefined || width === undefined || height === undefined || extra.length > 0)
    throw new FileError(
      'E_INVALID_ARGUMENTS',
      `view_file needs "region" as {"x": …, "y": …, "width": …, "height": …} in whole pixels (x, y from 0; width, height from 1), got ${JSON.stringify(value)}.`,
      { argument: 'region' },
    );
  return { x, y, width, height };
}

function readTiles(value: unknown): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw new FileError(
    'E_INVALID_ARGUMENTS',
    `view_file needs "tiles" as true or false, got ${JSON.stringify(value)}.`,
    {
      argument: 'tiles',
    },
  );
}
