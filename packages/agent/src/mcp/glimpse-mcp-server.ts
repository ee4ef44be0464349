import { PRESETS } from '@glimpse/media';
import type { PresetName } from '@glimpse/media';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { FileSystem } from '../fs/file-system.js';
import { defaultFileSystem } from '../fs/default-file-system.js';
import { DEFAULT_MAX_FILE_BYTES } from '../tools/file-tool.js';
import { READ_TOOL_DEFINITION, createReadTool } from '../tools/read.js';
import { VIEW_FILE_TOOL_DEFINITION, viewFile } from '../tools/view-file.js';
import { limitConcurrency } from './limit-concurrency.js';
import { partsToMcpContent } from './parts-to-mcp-content.js';
import type { ViewFileRunner } from './view-worker-pool.js';
import type { PortableViewOptions } from './view-worker-protocol.js';

export interface GlimpseMcpServerOptions {
  /** Only files inside this directory are served (no `..`, no symlink escape). Default: the working directory. */
  root?: string;
  /** Preset the images and PDFs are fitted to. Default `portable` (safe on every provider). */
  preset?: PresetName;
  /** Files above this are refused without being buffered. */
  maxFileBytes?: number;
  /** Refuse files whose extension names another type than their content. */
  strict?: boolean;
  fileSystem?: FileSystem;
  /** Queue for view_file work; share one between servers (HTTP makes one server per request). Default: two at a time. */
  viewQueue?: <T>(task: () => Promise<T>) => Promise<T>;
  /**
   * Where view_file calls run. Default: on this thread, through `fileSystem`. `glimpse mcp` passes a worker
   * pool's `view` (createViewWorkerPool), so a slow file has a time budget and cannot block `read`; the
   * workers read through Node's file system, not `fileSystem`.
   */
  viewFileRunner?: ViewFileRunner;
}

/** What the server reports as its name and version in `initialize`. */
export const GLIMPSE_MCP_SERVER_INFO = { name: 'glimpse', version: '0.1.0' } as const;

/** File URIs for embedded PDFs: `file://` plus the percent-encoded absolute path. */
function fileUri(path: string): string {
  return 'file://' + path.split('/').map(encodeURIComponent).join('/');
}

/**
 * An MCP server (official SDK, low-level `Server`) with two tools: `view_file`, which answers with
 * fitted `image` content or an embedded PDF `resource` plus a text summary, and `read` for text.
 * Failures are text content with `isError: true`. Connect it to any transport (`glimpse mcp` uses stdio).
 */
export function createGlimpseMcpServer(options: GlimpseMcpServerOptions = {}): Server {
  const { preset = 'portable', fileSystem = defaultFileSystem(), maxFileBytes = DEFAULT_MAX_FILE_BYTES, strict } = options;
  const root = fileSystem.paths.resolve(fileSystem.cwd(), options.root ?? '.');
  // The client chose to call view_file; the server declares what its preset carries (PDFs: not for Ollama).
  const viewOptions: PortableViewOptions = {
    root,
    maxFileBytes,
    strict: strict ?? false,
    capabilities: { imageInput: true, pdfInput: PRESETS[preset].maxPdfPages > 0, mediaInToolResults: true, preset },
  };
  const read = createReadTool({ fileSystem, root, maxFileBytes });
  const viewQueue = options.viewQueue ?? limitConcurrency(2);
  const runView: ViewFileRunner = options.viewFileRunner ?? ((args, portable, signal) => viewFile(args, { ...portable, fileSystem }, signal));

  const server = new Server(GLIMPSE_MCP_SERVER_INFO, {
    capabilities: { tools: {} },
    instructions: `Files under ${root}. view_file shows images, SVGs and PDFs fitted for the ${preset} preset; read shows text files with line numbers.`,
  });

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [READ_TOOL_DEFINITION, VIEW_FILE_TOOL_DEFINITION].map((definition) => ({
      name: definition.name,
      description: definition.description,
      inputSchema: { ...definition.parameters, type: 'object' as const },
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const args = request.params.arguments ?? {};
    switch (request.params.name) {
      case 'view_file': {
        const outcome = await viewQueue(() => runView(args, viewOptions, extra.signal));
        const uri = outcome.path === undefined ? `file://${root}` : fileUri(outcome.path);
        return { content: partsToMcpContent(outcome.parts, () => uri), isError: outcome.isError };
      }
      case 'read': {
        const result = await read.execute(args, { signal: extra.signal });
        return { content: partsToMcpContent(result.parts, () => `file://${root}`), isError: result.isError };
      }
      default:
        return { content: [{ type: 'text', text: `Unknown tool ${JSON.stringify(request.params.name)}: this server has view_file and read.` }], isError: true };
    }
  });
  return server;
}
