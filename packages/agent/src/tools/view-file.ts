import { detect, isMediaError, process } from '@glimpse/media';
import type { MediaType, ProcessResult } from '@glimpse/media';
import { FileError } from '../fs/file-error.js';
import type { FileSystem } from '../fs/file-system.js';
import { defaultFileSystem } from '../fs/default-file-system.js';
import { processNote, uprightOriginal } from '../results/notes.js';
import { toMediaPart } from '../results/to-media-part.js';
import type { Tool, ToolDefinition, ToolResult } from '../types.js';
import type { CapabilitySource } from './capability-gate.js';
import { noImageInput, requireKnownCapabilities } from './capability-gate.js';
import { decodeText } from './decode-text.js';
import { mediaLabel } from './describe-binary.js';
import { errorResult } from './error-result.js';
import { renamedFor, typeClaimedByExtension } from './extension-types.js';
import { DEFAULT_MAX_FILE_BYTES } from './file-limits.js';
import { formatBytes } from './format-bytes.js';
import { countPdfPages, extractPdfPages, parsePageRange } from './pdf-pages.js';
import { resolveFilePath } from './resolve-file-path.js';
import { optionalString, requiredString, refuseUndeclared } from './tool-arguments.js';
import { viewPdfPages } from './view-pdf-pages.js';

export const VIEW_FILE_TOOL_DEFINITION: ToolDefinition = {
  name: 'view_file',
  description:
    'Look at an image (PNG, JPEG, GIF, WebP, BMP, TIFF, ICO, AVIF; HEIC where the host has its decoder), an SVG or a PDF. The file is fitted to what you can take ' +
    '(resized, turned upright, converted) and attached to the result. A PDF comes as a document where you read PDFs, ' +
    'otherwise as its text plus images of its first pages; pages selects a range, as chooses the form. Use read for text files.',
  parameters: {
    type: 'object',
    properties: {
      path: {
        type: 'string',
        description: 'Path of the file: absolute, or relative to the working directory (the root, when one is set).',
      },
      pages: {
        type: 'string',
        description:
          'PDFs only: the pages, like "1-3" or "2,5-7". Default: all pages as a document; the first pages as text or images.',
      },
      as: {
        type: 'string',
        enum: ['document', 'images', 'text'],
        description:
          'PDFs only: "document" attaches the PDF (where you read PDFs); "images" renders pages as images (to read a chart or a scan; up to 10 per call); "text" gives the text of each page.',
      },
    },
    required: ['path'],
    additionalProperties: false,
  },
};

export interface ViewFileToolOptions extends CapabilitySource {
  fileSystem?: FileSystem;
  /** Refuse paths outside this directory (no `..`, no symlink escape). Relative paths resolve against it. */
  root?: string;
  /** Files above this are refused without being buffered. */
  maxFileBytes?: number;
  /** Refuse a file whose extension names another type than its content, instead of reading it with a note. */
  strict?: boolean;
}

/** What one view produced, for callers that need more than parts (the MCP server and `glimpse prepare`). */
export interface ViewFileOutcome extends ToolResult {
  /** The pipeline's answer when media was attached. */
  processed?: ProcessResult;
  /** The file that was read (after the name fallback). */
  path?: string;
  /** The failure behind an error result (`FileError` or `MediaError`), for callers that exit on it. */
  error?: unknown;
}

/** "1-3 of 12" style summary of which pages went out. */
function describePages(indices: number[], total: number): string {
  return indices.length === total ? `all ${total} pages` : `pages ${indices.map((i) => i + 1).join(', ')} of ${total}`;
}

function summary(name: string, result: ProcessResult, pagesNote: string | undefined): string {
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

/**
 * Reads one file and turns it into parts for the current model: media through the pipeline with the
 * model's preset, mismatches and name fallbacks told in notes, failures as error results.
 */
export async function viewFile(
  args: Record<string, unknown>,
  options: ViewFileToolOptions = {},
  signal?: AbortSignal,
): Promise<ViewFileOutcome> {
  const { fileSystem = defaultFileSystem(), root, maxFileBytes = DEFAULT_MAX_FILE_BYTES, strict = false } = options;
  const notes: string[] = [];
  try {
    const capabilities = requireKnownCapabilities(options);
    refuseUndeclared(args, VIEW_FILE_TOOL_DEFINITION);
    const requested = requiredString(args, 'path', 'view_file');
    const pages = optionalString(args, 'pages', 'view_file');
    const as = pdfForm(args);
    const resolved = await resolveFilePath(fileSystem, requested, { root });
    if (resolved.note !== undefined) notes.push(resolved.note);
    const name = fileSystem.paths.basename(resolved.path);
    let bytes = await fileSystem.readBytes(resolved.path, { maxBytes: maxFileBytes, signal });

    const actual = detect(bytes);
    const extension = fileSystem.paths.extname(name);
    const claimed = typeClaimedByExtension(extension);
    if (actual !== undefined && claimed !== undefined && actual !== claimed) {
      const rename = renamedFor(name, extension, actual);
      if (strict) {
        throw new FileError(
          'E_FILE_TYPE_MISMATCH',
          `${name} is named like a ${mediaLabel(claimed)} but contains a ${mediaLabel(actual)}. Rename it to ${rename} (strict mode refuses mismatched files).`,
          { path: resolved.path, claimed, actual, rename },
        );
      }
      notes.push(
        `Note: ${name} is named like a ${mediaLabel(claimed)} but contains a ${mediaLabel(actual)}; it was read as a ${mediaLabel(actual)} (the content decides). Renaming it to ${rename} would match.`,
      );
    }
    if (actual === undefined) return { ...notFileMedia(name, bytes, notes), path: resolved.path };

    let pagesNote: string | undefined;
    if (actual === 'application/pdf') {
      // Without PDF input, or when asked, glimpse reads the PDF itself: text, and page images for a model that sees.
      if (as === 'images' || as === 'text' || !capabilities.pdfInput) {
        if (as === 'document')
          notes.push(
            `Note: the current model cannot read PDFs as documents, so ${name} is shown as ${capabilities.imageInput ? 'text and page images' : 'text'}.`,
          );
        if (as === 'images' && !capabilities.imageInput)
          notes.push(`Note: the current model cannot see images, so ${name} is shown as text.`);
        const form =
          as === 'images' && capabilities.imageInput
            ? 'images'
            : as === 'text' || !capabilities.imageInput
              ? 'text'
              : 'both';
        const parts = await viewPdfPages(bytes, {
          name,
          ...(pages !== undefined ? { pages } : {}),
          text: form !== 'images',
          images: form !== 'text',
          preset: capabilities.preset,
        });
        const [first, ...rest] = parts;
        return {
          parts: first?.type === 'text' ? [{ type: 'text', text: [...notes, first.text].join('\n') }, ...rest] : parts,
          isError: false,
          path: resolved.path,
        };
      }
      if (pages !== undefined) {
        const total = await countPdfPages(bytes).catch(() => undefined);
        // A PDF pdf-lib cannot open (encrypted, damaged) goes to the pipeline whole, which names the problem.
        if (total !== undefined) {
          const indices = parsePageRange(pages, total);
          bytes = await extractPdfPages(bytes, indices);
          pagesNote = describePages(indices, total);
        }
      }
    } else {
      if (!capabilities.imageInput) throw noImageInput();
      if (pages !== undefined)
        notes.push(`Note: pages applies to PDFs only; ${name} is a ${mediaLabel(actual)}, so it was ignored.`);
      if (as !== undefined)
        notes.push(`Note: as applies to PDFs only; ${name} is a ${mediaLabel(actual)}, so it was ignored.`);
    }

    const processed = await process(bytes, { preset: capabilities.preset });
    const resize = processNote(name, processed);
    const text = [...notes, summary(name, processed, pagesNote), ...(resize === undefined ? [] : [resize])].join('\n');
    return {
      parts: [{ type: 'text', text }, toMediaPart(processed, name)],
      isError: false,
      processed,
      path: resolved.path,
    };
  } catch (error) {
    if (isMediaError(error) && error.code === 'E_TOO_LARGE' && typeof error.details.pages === 'number') {
      return {
        ...errorResult(error, notes, [
          `Call view_file again with pages (for example "1-${Math.min(10, Number(error.details.maxPdfPages) || 10)}"), or with as: "text" to read its text.`,
        ]),
        error,
      };
    }
    if (isMediaError(error) && typeof error.details.decoderPackage === 'string') {
      // The model can neither install a package nor change the preset: it gets what it can act on, and the
      // developer's remedy stays in `error` for the host to show.
      const text = `E_UNSUPPORTED: This ${mediaLabel(String(error.details.mediaType) as MediaType)} cannot be shown here: the host has no decoder for it. Ask the user for a JPEG or PNG copy.`;
      return { parts: [{ type: 'text', text: [...notes, text].join('\n') }], isError: true, error };
    }
    return { ...errorResult(error, notes), error };
  }
}

const PDF_FORMS = ['document', 'images', 'text'] as const;

/** The `as` argument: how to show a PDF. */
function pdfForm(args: Record<string, unknown>): (typeof PDF_FORMS)[number] | undefined {
  const value = optionalString(args, 'as', 'view_file');
  if (value === undefined) return undefined;
  const form = PDF_FORMS.find((candidate) => candidate === value);
  if (form === undefined)
    throw new FileError(
      'E_INVALID_ARGUMENTS',
      `view_file needs "as" to be one of ${PDF_FORMS.map((f) => `"${f}"`).join(', ')}, got ${JSON.stringify(value)}.`,
      { argument: 'as' },
    );
  return form;
}

/** Content no magic number names: text gets a pointer to `read`, anything else a note. */
function notFileMedia(name: string, bytes: Uint8Array, notes: string[]): ToolResult {
  const asText = bytes.byteLength > 0 ? decodeText(bytes) : undefined;
  const what =
    asText !== undefined
      ? `${name} is a text file, not an image, SVG or PDF. Use read to see it.`
      : `${name} (${formatBytes(bytes.byteLength)}) is not an image, SVG or PDF that glimpse can read: its content matches no known format${bytes.byteLength === 0 ? ' (it is empty)' : ''}. If it should be an image, it is damaged or in an unsupported format.`;
  return { parts: [{ type: 'text', text: [...notes, `E_UNSUPPORTED: ${what}`].join('\n') }], isError: true };
}

/** The `view_file` tool: offer it only when `offersViewFile` says so; it re-checks the model at every call. */
export function createViewFileTool(options: ViewFileToolOptions = {}): Tool {
  return {
    definition: VIEW_FILE_TOOL_DEFINITION,
    execute: async (args, context = {}) => {
      const { parts, isError } = await viewFile(args, options, context.signal);
      return { parts, isError };
    },
  };
}
