import {
  isMediaError,
  planTiles,
  process,
  renderPdfPage,
  type MediaType,
  type ProcessResult,
  type Region,
} from '@glimpse/media';
import { defaultFileSystem } from '../fs/default-file-system.js';
import type { FileSystem } from '../fs/file-system.js';
import { legibilityNote, processNote, shrunkPastReading, uprightOriginal } from '../results/notes.js';
import { toMediaPart } from '../results/to-media-part.js';
import type { ModelCapabilities } from '../route/capabilities.js';
import { fitOptions } from '../route/fit-options.js';
import type { Tool, ToolResult } from '../types.js';
import type { CapabilitySource } from './capability-gate.js';
import { noImageInput, requireKnownCapabilities } from './capability-gate.js';
import { decodeText } from './decode-text.js';
import { mediaLabel } from './describe-binary.js';
import { DEFAULT_MAX_FILE_BYTES } from './file-limits.js';
import { formatBytes } from './format-bytes.js';
import { parsePageRange, pdfPageCount } from './pdf-pages.js';
import { readMediaFile, type MediaFile } from './read-media-file.js';
import { readViewArguments, VIEW_FILE_TOOL_DEFINITION, type ViewArguments } from './view-file-arguments.js';
import { attachedSummary, describeSentPages } from './view-file-summary.js';
import { viewFailure } from './view-file-failure.js';
import { viewPdfPages } from './view-pdf-pages.js';
import { DEFAULT_MAX_TILES, viewTiles } from './view-tiles.js';
import { processWithFonts, type SvgFontOptions } from './svg-fonts.js';

export { VIEW_FILE_TOOL_DEFINITION };

export interface ViewFileToolOptions extends CapabilitySource, SvgFontOptions {
  fileSystem?: FileSystem;
  /** Refuse paths outside this directory (no `..`, no symlink escape). Relative paths resolve against it. */
  root?: string;
  /** Files above this are refused without being buffered. */
  maxFileBytes?: number;
  /** Refuse a file whose extension names another type than its content, instead of reading it with a note. */
  strict?: boolean;
  /**
   * Send an image's Exif, XMP, IPTC and comments (GPS position included) as they are. Default false: an image
   * sent as it is goes without them, cut out losslessly (media's `keepMetadata`).
   */
  keepMetadata?: boolean;
  /**
   * Refuse an image whose header declares more pixels than this (media's `maxInputPixels`, default 100 MP),
   * before anything is decoded: `glimpse mcp --max-input-pixels N`.
   */
  maxInputPixels?: number;
  /** Most tiles one `tiles: true` call returns (default 16); the rest are listed, to ask for by region. */
  maxTiles?: number;
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

/**
 * Reads one file and turns it into parts for the current model: media through the pipeline with the model's
 * preset, a PDF as a document or read as text and page images, mismatches and name fallbacks told in notes,
 * failures as error results.
 */
export async function viewFile(
  args: Record<string, unknown>,
  options: ViewFileToolOptions = {},
  signal?: AbortSignal,
): Promise<ViewFileOutcome> {
  const notes: string[] = [];
  try {
    const capabilities = requireKnownCapabilities(options);
    const request = readViewArguments(args);
    const read = {
      fileSystem: options.fileSystem ?? defaultFileSystem(),
      root: options.root,
      maxFileBytes: options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
      strict: options.strict ?? false,
      signal,
    };
    const file = await readMediaFile(request.path, read, notes);
    const { type } = file;
    const outcome =
      type === undefined
        ? notMedia(file, notes)
        : type === 'application/pdf'
          ? await viewPdf(file, request, capabilities, notes)
          : await viewImage(file, type, request, capabilities, notes, options.maxTiles ?? DEFAULT_MAX_TILES, options);
    return { ...outcome, path: file.path };
  } catch (error) {
    return { ...viewFailure(error, notes), error };
  }
}

/** An image (or SVG) through the pipeline; `pages` and `as` do not apply to it, and the model is told so. */
async function viewImage(
  file: MediaFile,
  type: MediaType,
  request: ViewArguments,
  capabilities: ModelCapabilities,
  notes: readonly string[],
  maxTiles: number,
  fonts: SvgFontOptions & { keepMetadata?: boolean; maxInputPixels?: number },
): Promise<ViewFileOutcome> {
  if (!capabilities.imageInput) throw noImageInput();
  const { maxInputPixels } = fonts;
  const fit = { ...fitOptions(capabilities), ...(maxInputPixels !== undefined && { maxInputPixels }) };
  const what = `${file.name} is a ${mediaLabel(type)}, so it was ignored`;
  const ignored = [
    ...(request.pages === undefined ? [] : [`Note: pages applies to PDFs only; ${what}.`]),
    ...(request.as === undefined ? [] : [`Note: as applies to PDFs only; ${what}.`]),
  ];
  if (request.tiles === true && type === 'image/svg+xml')
    ignored.push(`Note: tiles applies to raster images; ${file.name} is an SVG, drawn whole at the size you take.`);
  else if (request.tiles === true) {
    // Many images: no single `processed` (the MCP worker then sends each part's base64 as it is).
    const { parts } = await viewTiles(file.bytes, file.name, fit, maxTiles);
    const [head, ...rest] = parts;
    const text = [...notes, ...ignored, head?.type === 'text' ? head.text : ''].join('\n');
    return { parts: [{ type: 'text', text }, ...rest], isError: false };
  }
  const region = request.region === undefined ? {} : { region: request.region };
  const processed = await processWithFonts(
    file.bytes,
    { ...fit, ...region, ...(fonts.keepMetadata === true && { keepMetadata: true }) },
    fonts,
  );
  return attached(
    file,
    [...notes, ...ignored, ...closerLook(file.name, request.path, processed, capabilities, maxTiles)],
    processed,
  );
}

/**
 * A screenshot or page shrunk past reading: the model is told by how much, and how to look closer (never tiled
 * unasked: the model chooses the cost). Said before the summary, so it is read first.
 */
function closerLook(
  name: string,
  asked: string,
  processed: ProcessResult,
  capabilities: ModelCapabilities,
  maxTiles: number,
): string[] {
  const factor = shrunkPastReading(processed);
  if (factor === undefined) return [];
  const original = uprightOriginal(processed);
  const count = planTiles(original, fitOptions(capabilities)).regions.length;
  const path = JSON.stringify(asked);
  return [
    `Note: ${legibilityNote(name, factor)}. To read it, call view_file with {"path": ${path}, "tiles": true} ` +
      `(${count} tile${count === 1 ? '' : 's'} at full resolution${count > maxTiles ? `; the first ${maxTiles} come, the rest are listed` : ''}), ` +
      `or with a "region" {"x", "y", "width", "height"} in pixels of the ${original.width}x${original.height} original.`,
  ];
}

/**
 * A PDF attached as a document, the chosen pages only when `pages` names some; or, for a model without PDF input
 * or when `as` asks for it, read by glimpse itself: its text, and page images for a model that sees.
 */
async function viewPdf(
  file: MediaFile,
  request: ViewArguments,
  capabilities: ModelCapabilities,
  notes: string[],
): Promise<ViewFileOutcome> {
  const { as } = request;
  if (request.region !== undefined) return viewPdfRegion(file, request, request.region, capabilities, notes);
  if (request.tiles === true)
    notes.push(
      `Note: tiles applies to images; for ${file.name}, a PDF, ask for pages (as: "images") or a region of one page.`,
    );
  if (as === 'images' || as === 'text' || !capabilities.pdfInput) return readPdf(file, request, capabilities, notes);
  try {
    return await attachPdf(file, request, capabilities, notes);
  } catch (error) {
    if (!opensWithoutPassword(error)) throw error;
    // Providers refuse encrypted files, but this one opens without a password: glimpse reads it instead.
    notes.push(
      `Note: ${file.name} is encrypted with an empty password (it opens without one), and providers refuse encrypted PDFs, so it is sent as ${capabilities.imageInput ? 'text and page images' : 'text'}.`,
    );
    return readPdf(file, request, capabilities, notes);
  }
}

/** E_PDF_ENCRYPTED for a PDF that PDFium opened without a password (media's `details.opensWithoutPassword`). */
function opensWithoutPassword(error: unknown): boolean {
  return isMediaError(error) && error.code === 'E_PDF_ENCRYPTED' && error.details?.opensWithoutPassword === true;
}

/** The PDF read by glimpse: its text, and page images for a model that sees (`as` chooses). */
async function readPdf(
  file: MediaFile,
  request: ViewArguments,
  capabilities: ModelCapabilities,
  notes: string[],
): Promise<ViewFileOutcome> {
  const { as } = request;
  if (as === 'document' && !capabilities.pdfInput)
    notes.push(
      `Note: the current model cannot read PDFs as documents, so ${file.name} is shown as ${capabilities.imageInput ? 'text and page images' : 'text'}.`,
    );
  if (as === 'images' && !capabilities.imageInput)
    notes.push(`Note: the current model cannot see images, so ${file.name} is shown as text.`);
  const images = capabilities.imageInput && as !== 'text';
  const text = !(images && as === 'images');
  const parts = await viewPdfPages(file.bytes, {
    name: file.name,
    ...(request.pages !== undefined && { pages: request.pages }),
    text,
    images,
    ...fitOptions(capabilities),
  });
  const [first, ...rest] = parts;
  return {
    parts:
      first?.type === 'text' ? [{ type: 'text' as const, text: [...notes, first.text].join('\n') }, ...rest] : parts,
    isError: false,
  };
}

/** The PDF attached as a document, the chosen pages only when `pages` names some. */
async function attachPdf(
  file: MediaFile,
  request: ViewArguments,
  capabilities: ModelCapabilities,
  notes: string[],
): Promise<ViewFileOutcome> {
  // A PDF whose pages cannot be counted (encrypted, damaged) goes to the pipeline whole, which names the problem.
  const total = request.pages === undefined ? undefined : await pdfPageCount(file.bytes);
  if (request.pages === undefined || total === undefined)
    return attached(file, notes, await process(file.bytes, fitOptions(capabilities)));
  const pages = parsePageRange(request.pages, total);
  const processed = await process(file.bytes, { ...fitOptions(capabilities), pages });
  return attached(file, notes, processed, describeSentPages(pages, total));
}

/** A region of one PDF page (the one `pages` names, else the first), drawn at the resolution that fills the working size. */
async function viewPdfRegion(
  file: MediaFile,
  request: ViewArguments,
  region: Region,
  capabilities: ModelCapabilities,
  notes: readonly string[],
): Promise<ViewFileOutcome> {
  if (!capabilities.imageInput) throw noImageInput();
  const total = await pdfPageCount(file.bytes);
  const chosen = request.pages === undefined || total === undefined ? [1] : parsePageRange(request.pages, total);
  const [page = 1, ...rest] = chosen;
  const which =
    rest.length > 0
      ? `Note: a region is drawn from one page; this is page ${page} of ${total ?? '?'}.`
      : `The region is from page ${page} of ${total ?? '?'}.`;
  const rendered = await renderPdfPage(file.bytes, page, { ...fitOptions(capabilities), region });
  return attached(file, [...notes, which], rendered);
}

/** The media part, after a text part with the notes, what was attached, and what the pipeline did to it. */
function attached(
  file: MediaFile,
  notes: readonly string[],
  processed: ProcessResult,
  pagesNote?: string,
): ViewFileOutcome {
  const changes = processNote(file.name, processed);
  const text = [
    ...notes,
    attachedSummary(file.name, processed, pagesNote),
    ...(changes === undefined ? [] : [changes]),
  ];
  return {
    parts: [{ type: 'text', text: text.join('\n') }, toMediaPart(processed, file.name)],
    isError: false,
    processed,
  };
}

/** Content no magic number names: text gets a pointer to `read`, anything else a note. */
function notMedia({ name, bytes }: MediaFile, notes: readonly string[]): ToolResult {
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
