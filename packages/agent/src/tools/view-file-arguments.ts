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
  return { path, ...(pages !== undefined && { pages }), ...(form !== undefined && { as: form }) };
}
