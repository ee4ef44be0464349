import { PRESETS } from '@glimpse/media';
import type { PresetName } from '@glimpse/media';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { FileSystem } from '../fs/file-system.js';
import { defaultFileSystem } from '../fs/default-file-system.js';
import { DEFAULT_MAX_FILE_BYTES } from '../tools/file-limits.js';
import { READ_TOOL_DEFINITION, createReadTool } from '../tools/read.js';
import type { SvgFontOptions } from '../tools/svg-fonts.js';
import { VIEW_FILE_TOOL_DEFINITION, viewFile } from '../tools/view-file.js';
import type { Part } from '../types.js';
import { fitResultBytes } from '../fit-result-bytes.js';
import { utf8Length } from '../request-bytes.js';
import { hideServerPaths } from './hide-server-paths.js';
import { limitConcurrency } from './limit-concurrency.js';
import { partsToMcpContent } from './parts-to-mcp-content.js';
import type { ViewFileRunner } from './view-worker-pool.js';
import type { PortableViewOptions } from './view-worker-protocol.js';

export interface GlimpseMcpServerOptions {
  /** Only files inside this directory are served (no `..`, no symlink escape). Default: the working directory. */
  root?: string;
  /** Preset the images and PDFs are fitted to. Default `portable` (safe on every hosted provider; for Ollama, `ollama`). */
  preset?: PresetName;
  /** Files above this are refused without being buffered. */
  maxFileBytes?: number;
  /** Refuse files whose extension names another type than their content. */
  strict?: boolean;
  /** Refuse images whose header declares more pixels than this, before decoding (default: media's, 100 MP). */
  maxInputPixels?: number;
  fileSystem?: FileSystem;
  /** Queue for view_file work; share one between servers (HTTP makes one server per request). Default: two at a time. */
  viewQueue?: <T>(task: () => Promise<T>) => Promise<T>;
  /**
   * Where view_file calls run. Default: on this thread, through `fileSystem`. `glimpse mcp` passes a worker
   * pool's `view` (createViewWorkerPool), so a slow file has a time budget and cannot block `read`; the
   * workers read through Node's file system, not `fileSystem`.
   */
  viewFileRunner?: ViewFileRunner;
  /**
   * Fonts for SVG text when view_file runs on this thread (a worker pool takes its own: createViewWorkerPool's
   * `fonts` and `systemFonts`).
   */
  fonts?: SvgFontOptions['fonts'];
  fallbackFonts?: SvgFontOptions['fallbackFonts'];
  /**
   * Most bytes of one tool result as JSON (base64 included), for hosts that refuse larger ones: Claude Desktop
   * refuses a result over 1 MiB ("result exceeds maximum length of 1048576"). Over it, images are fitted smaller,
   * never cut; only what no legible size lets in becomes a note. Default: no cap.
   */
  maxResultBytes?: number;
}

/** What the server reports as its name and version in `initialize`. */
export const GLIMPSE_MCP_SERVER_INFO = { name: 'glimpse', version: '0.1.0' } as const;

/** The URI of an embedded PDF: its path relative to the root, percent-encoded (the server's own paths stay private). */
function relativeUri(relativePath: string): string {
  return relativePath.split('/').map(encodeURIComponent).join('/');
}

/**
 * An MCP server (official SDK, low-level `Server`) with two tools: `view_file`, which answers with
 * fitted `image` content or an embedded PDF `resource` plus a text summary, and `read` for text.
 * Failures are text content with `isError: true`. Connect it to any transport (`glimpse mcp` uses stdio).
 */
export function createGlimpseMcpServer(options: GlimpseMcpServerOptions = {}): Server {
  const {
    preset = 'portable',
    fileSystem = defaultFileSystem(),
    maxFileBytes = DEFAULT_MAX_FILE_BYTES,
    strict,
    maxInputPixels,
  } = options;
  const root = fileSystem.paths.resolve(fileSystem.cwd(), options.root ?? '.');
  // The client chose to call view_file; the server declares what its preset carries (PDFs: not for Ollama).
  const viewOptions: PortableViewOptions = {
    root,
    maxFileBytes,
    strict: strict ?? false,
    ...(maxInputPixels !== undefined && { maxInputPixels }),
    capabilities: { imageInput: true, pdfInput: PRESETS[preset].maxPdfPages > 0, mediaInToolResults: true, preset },
  };
  const read = createReadTool({ fileSystem, root, maxFileBytes });
  const viewQueue = options.viewQueue ?? limitConcurrency(2);
  const runView: ViewFileRunner =
    options.viewFileRunner ??
    ((args, portable, signal) =>
      viewFile(args, { ...portable, fileSystem, fonts: options.fonts, fallbackFonts: options.fallbackFonts }, signal));

  const server = new Server(GLIMPSE_MCP_SERVER_INFO, {
    capabilities: { tools: {} },
    instructions: `Paths are relative to the directory this server serves. view_file shows images, SVGs and PDFs fitted for the ${preset} preset; read shows text files with line numbers.`,
  });

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [READ_TOOL_DEFINITION, VIEW_FILE_TOOL_DEFINITION].map((definition) => ({
      name: definition.name,
      description: definition.description,
      inputSchema: { ...definition.parameters, type: 'object' as const },
    })),
  }));

  const hidePaths = hideServerPaths(fileSystem.paths, root);
  const { maxResultBytes } = options;
  const answer = async (parts: Part[], isError: boolean, path: string | undefined): Promise<CallToolResult> => {
    const shown = parts.map((part) => (part.type === 'text' ? { ...part, text: hidePaths(part.text) } : part));
    const uri = relativeUri(path === undefined ? '.' : fileSystem.paths.relative(root, path) || '.');
    const result = (sent: Part[]): CallToolResult => ({ content: partsToMcpContent(sent, () => uri), isError });
    if (maxResultBytes === undefined) return result(shown);
    const fitted = await fitResultBytes({
      parts: shown,
      preset,
      maxBytes: maxResultBytes,
      measure: (sent) => utf8Length(JSON.stringify(result(sent))),
    });
    return result(fitted.parts);
  };

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const args = request.params.arguments ?? {};
    try {
      switch (request.params.name) {
        case 'view_file': {
          const outcome = await viewQueue(() => runView(args, viewOptions, extra.signal));
          return answer(outcome.parts, outcome.isError, outcome.path);
        }
        case 'read': {
          const result = await read.execute(args, { signal: extra.signal });
          return answer(result.parts, result.isError, undefined);
        }
        default:
          return answer(
            [
              {
                type: 'text',
                text: `Unknown tool ${JSON.stringify(request.params.name)}: this server has view_file and read.`,
              },
            ],
            true,
            undefined,
          );
      }
    } catch (error) {
      // A failure of the server itself (a crashed worker): one line the model can read, never a stack or a path.
      const message = error instanceof Error ? error.message : String(error);
      return answer(
        [{ type: 'text', text: `The ${request.params.name} call failed inside the server: ${message.split('\n')[0]}` }],
        true,
        undefined,
      );
    }
  });
  return server;
}
