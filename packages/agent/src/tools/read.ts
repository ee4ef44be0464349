import { detect, pdfText } from '@glimpse/media';
import type { MediaType } from '@glimpse/media';
import type { FileSystem } from '../fs/file-system.js';
import { defaultFileSystem } from '../fs/default-file-system.js';
import type { Tool, ToolDefinition, ToolResult } from '../types.js';
import { decodeText } from './decode-text.js';
import { describeBinary, mediaLabel } from './describe-binary.js';
import { errorResult } from './error-result.js';
import { DEFAULT_MAX_FILE_BYTES } from './file-limits.js';
import { formatBytes } from './format-bytes.js';
import { resolveFilePath } from './resolve-file-path.js';
import { optionalPositiveInteger, PATH_ARGUMENT, requiredString, refuseUndeclared } from './tool-arguments.js';

export const READ_TOOL_DEFINITION: ToolDefinition = {
  name: 'read',
  description:
    'Read a text file, or the text of a PDF (each page marked). Lines come numbered (cat -n style). Use offset and limit ' +
    'to page through long files. Images and SVGs are not shown as text: use view_file for them.',
  parameters: {
    type: 'object',
    properties: {
      path: PATH_ARGUMENT,
      offset: { type: 'integer', minimum: 1, description: 'First line to show, counting from 1. Default 1.' },
      limit: { type: 'integer', minimum: 1, description: 'How many lines to show. Default 2000.' },
    },
    required: ['path'],
    additionalProperties: false,
  },
};

/**
 * Media `view_file` can show; other binaries get a plain note. PDFs are read as their text. HEIC/HEIF count:
 * view_file converts them when `@glimpse/heif` is loaded, and otherwise says what to install.
 */
const VIEWABLE: ReadonlySet<MediaType> = new Set<MediaType>([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/bmp',
  'image/svg+xml',
  'image/tiff',
  'image/x-icon',
  'image/avif',
  'image/heic',
  'image/heif',
]);

export interface ReadToolOptions {
  fileSystem?: FileSystem;
  /** Refuse paths outside this directory (no `..`, no symlink escape). Relative paths resolve against it. */
  root?: string;
  /** Files above this are refused without being buffered. */
  maxFileBytes?: number;
  /** Lines shown when the call gives no limit. Default 2000. */
  maxLines?: number;
  /** Longer lines are cut. Default 2000 characters. */
  maxLineChars?: number;
  /** The whole answer stops before this many characters. Default 50,000. */
  maxOutputChars?: number;
}

/** Formats the lines from `offset` on, within the limits, with the notes that say how to read more. */
function formatLines(
  text: string,
  offset: number,
  limit: number,
  { maxLineChars, maxOutputChars }: { maxLineChars: number; maxOutputChars: number },
): string {
  const lines = text.split(/\r?\n/);
  if (lines.length > 1 && lines.at(-1) === '') lines.pop();
  if (text === '') return '(empty file)';
  if (offset > lines.length)
    return `The file has ${lines.length} lines; offset ${offset} is past its end. Call read with an offset between 1 and ${lines.length}.`;
  const width = String(Math.min(lines.length, offset + limit - 1)).length;
  const out: string[] = [];
  let size = 0;
  let cutLines = 0;
  let last = offset - 1;
  for (let index = offset - 1; index < Math.min(lines.length, offset - 1 + limit); index++) {
    let line = lines[index]!;
    if (line.length > maxLineChars) {
      line = `${line.slice(0, maxLineChars)}… [line cut: ${line.length} characters]`;
      cutLines++;
    }
    const numbered = `${String(index + 1).padStart(width)}\t${line}`;
    if (size + numbered.length + 1 > maxOutputChars && out.length > 0) break;
    out.push(numbered);
    size += numbered.length + 1;
    last = index + 1;
  }
  const notes: string[] = [];
  if (last < lines.length) {
    notes.push(`[Showing lines ${offset}-${last} of ${lines.length}. Call read with offset=${last + 1} to continue.]`);
  }
  if (cutLines > 0)
    notes.push(
      `[${cutLines} line(s) longer than ${maxLineChars} characters were cut; use a search or a text-processing tool to see the rest of them.]`,
    );
  return [...out, ...notes].join('\n');
}

/** The `read` tool: numbered text, paged; binaries described in one line, never dumped. */
export function createReadTool(options: ReadToolOptions = {}): Tool {
  const {
    fileSystem = defaultFileSystem(),
    root,
    maxFileBytes = DEFAULT_MAX_FILE_BYTES,
    maxLines = 2000,
    maxLineChars = 2000,
    maxOutputChars = 50_000,
  } = options;
  return {
    definition: READ_TOOL_DEFINITION,
    async execute(args, context = {}): Promise<ToolResult> {
      let resolvedNote: string[] = [];
      try {
        refuseUndeclared(args, READ_TOOL_DEFINITION);
        const requested = requiredString(args, 'path', 'read');
        const offset = optionalPositiveInteger(args, 'offset', 'read') ?? 1;
        const limit = optionalPositiveInteger(args, 'limit', 'read') ?? maxLines;
        const resolved = await resolveFilePath(fileSystem, requested, { root });
        resolvedNote = resolved.note === undefined ? [] : [resolved.note];
        const bytes = await fileSystem.readBytes(resolved.path, { maxBytes: maxFileBytes, signal: context.signal });
        const media = detect(bytes);
        if (media === 'application/pdf')
          return text([
            ...resolvedNote,
            formatLines(await pdfAsText(bytes), offset, limit, { maxLineChars, maxOutputChars }),
          ]);
        if (media !== undefined && VIEWABLE.has(media)) {
          return text([
            ...resolvedNote,
            `${requested} is a ${mediaLabel(media)} (${formatBytes(bytes.byteLength)}), not text. Call view_file with this path to see it.`,
          ]);
        }
        const decoded = media === undefined ? decodeText(bytes) : undefined;
        if (decoded === undefined) {
          const kind =
            media !== undefined
              ? `${mediaLabel(media)} (a format view_file cannot show)`
              : (describeBinary(bytes) ?? 'binary file of unknown type');
          return text([
            ...resolvedNote,
            `${requested} is a ${kind}, ${formatBytes(bytes.byteLength)}; its bytes are not shown as text.`,
          ]);
        }
        return text([...resolvedNote, formatLines(decoded, offset, limit, { maxLineChars, maxOutputChars })]);
      } catch (error) {
        return errorResult(error, resolvedNote, [], 'read');
      }
    },
  };
}

/** Every page's text under a `--- page N of M ---` line; a page without text says how to see it. */
async function pdfAsText(bytes: Uint8Array): Promise<string> {
  const { pageCount, pages } = await pdfText(bytes);
  return pages
    .flatMap(({ page, text: body }) => [
      `--- page ${page} of ${pageCount} ---`,
      body.trim() === ''
        ? '(no text layer on this page: a scan or a drawing; view_file with as: "images" shows it)'
        : body.trim(),
    ])
    .join('\n');
}

function text(lines: string[]): ToolResult {
  return { parts: [{ type: 'text', text: lines.join('\n') }], isError: false };
}
