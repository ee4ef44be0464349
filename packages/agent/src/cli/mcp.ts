import { stat } from 'node:fs/promises';
import { isPresetName, PRESET_NAMES } from '@glimpse/media';
import type { PresetName } from '@glimpse/media';
import { isProviderName, PROVIDER_NAMES } from '../route/capabilities.js';
import { presetOf } from '../route/resolve-route.js';
import { createGlimpseMcpServer } from '../mcp/glimpse-mcp-server.js';
import { limitConcurrency } from '../mcp/limit-concurrency.js';
import { serveMcpOverHttp } from '../mcp/serve-mcp-http.js';
import { StdioJsonRpcTransport } from '../mcp/stdio-json-rpc-transport.js';
import { createViewWorkerPool, DEFAULT_VIEW_TIMEOUT_MS } from '../mcp/view-worker-pool.js';
import { DEFAULT_MAX_FILE_BYTES } from '../tools/file-limits.js';
import { READ_TOOL_DEFINITION } from '../tools/read.js';
import { argumentSignature } from '../tools/tool-arguments.js';
import { VIEW_FILE_TOOL_DEFINITION } from '../tools/view-file-arguments.js';
import type { ToolDefinition } from '../types.js';
import { parseArgs, positiveInteger, stringFlag } from './args.js';
import { UsageError, type Command } from './command.js';
import { loadOptionalDecoders } from './load-optional-decoders.js';
import './local-disk.js';
import { readFonts } from './read-fonts.js';

const signature = (definition: ToolDefinition) => `${definition.name} ${argumentSignature(definition)}`;

const usage = `Usage: glimpse mcp [--root DIR] [--preset NAME] [--max-file-bytes N] [--max-input-pixels N] [--strict]
                  [--timeout-ms N] [--http PORT] [--font FILE]... [--no-system-fonts] [--max-result-bytes N]

Runs an MCP server on stdin/stdout (for Claude Desktop, Claude Code, Cursor, VS Code, …) with two tools:
  ${signature(VIEW_FILE_TOOL_DEFINITION)}  images, SVGs and PDFs, fitted for the provider: images come back as
                            MCP image content, PDFs as an embedded application/pdf resource plus a summary
                            (as: "images" or "text" gives a PDF's page images or its text instead)
  ${signature(READ_TOOL_DEFINITION)}  text files with line numbers; binaries described, never dumped

Options:
  --root DIR           serve only files inside DIR (default: the working directory); paths that leave
                       it, by .. or through a symlink, are refused
  --preset NAME        fit for this preset: ${PRESET_NAMES.join(', ')}
                       (default: portable, safe everywhere); route names work too
                       (${PROVIDER_NAMES.filter((p) => !isPresetName(p)).join(', ')} → openai);
                       --provider NAME is the same option, under its earlier name
  --max-file-bytes N   refuse files larger than N bytes without reading them (default ${DEFAULT_MAX_FILE_BYTES})
  --max-input-pixels N refuse images whose header declares more pixels, before decoding them
                       (default 100000000, as on glimpse process)
  --strict             refuse files whose extension names another type than their content
  --timeout-ms N       time one view_file call may take (default ${DEFAULT_VIEW_TIMEOUT_MS}); views run on worker
                       threads, so a slow file never holds up read or other calls, and one over this
                       budget is stopped and answered with an E_TIMEOUT error
  --http PORT          serve Streamable HTTP at http://127.0.0.1:PORT/mcp instead of stdio
                       (bound to 127.0.0.1 only; stateless, JSON responses)
  --font FILE          a TTF, OTF or TTC font for SVG text, tried before the bundled DejaVu Sans subset
                       (Latin, Greek, basic Cyrillic); give it once per font
  --no-system-fonts    draw SVG text only with --font and the bundled face; by default, text they lack
                       (CJK labels, Arabic, …) is drawn with a system font that has it (fontconfig's fc-list)
  --max-result-bytes N keep each tool result's JSON under N bytes by fitting its images smaller (never by
                       cutting base64); Claude Desktop refuses results over 1 MiB: --max-result-bytes 1048576
  -h, --help           show this help

Logs go to stderr; stdout carries only the protocol.`;

/** A preset name, or a route name mapped to its preset (openai-chat → openai). */
function presetFor(name: string): PresetName {
  if (isPresetName(name)) return name;
  if (isProviderName(name)) return presetOf({ provider: name });
  throw new UsageError(
    `--preset must be one of ${[...PRESET_NAMES, ...PROVIDER_NAMES.filter((p) => !isPresetName(p))].join(', ')}, got ${JSON.stringify(name)}`,
  );
}

export const mcpCommand: Command = {
  usage,
  async run(args) {
    await loadOptionalDecoders();
    const { positionals, flags, lists } = parseArgs(args, {
      values: [
        '--root',
        '--preset',
        '--max-file-bytes',
        '--timeout-ms',
        '--http',
        '--max-result-bytes',
        '--max-input-pixels',
      ],
      booleans: ['--strict', '--no-system-fonts'],
      lists: ['--font'],
      aliases: { '--provider': '--preset' },
    });
    if (positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
    const root = stringFlag(flags, '--root');
    if (
      root !== undefined &&
      !(await stat(root).then(
        (s) => s.isDirectory(),
        () => false,
      ))
    )
      throw new UsageError(`--root ${JSON.stringify(root)} is not a directory`);
    const preset = stringFlag(flags, '--preset');
    const timeoutMs = positiveInteger(flags, '--timeout-ms');
    const httpPort = positiveInteger(flags, '--http');
    // One pool for the process (HTTP makes a server per request): media work off the protocol thread, with a budget.
    const fonts = await readFonts(lists.get('--font') ?? []);
    const pool = createViewWorkerPool({ timeoutMs, fonts, systemFonts: !flags.has('--no-system-fonts') });
    const options = {
      root,
      preset: preset === undefined ? 'portable' : presetFor(preset),
      maxFileBytes: positiveInteger(flags, '--max-file-bytes'),
      maxInputPixels: positiveInteger(flags, '--max-input-pixels'),
      strict: flags.has('--strict'),
      viewQueue: limitConcurrency(2),
      viewFileRunner: pool.view,
      maxResultBytes: positiveInteger(flags, '--max-result-bytes'),
    };
    if (httpPort !== undefined) {
      const endpoint = await serveMcpOverHttp(() => createGlimpseMcpServer(options), { port: httpPort });
      process.stderr.write(`glimpse mcp: listening on ${endpoint.url}\n`);
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      await endpoint.close();
      await pool.close();
      return 0;
    }
    const server = createGlimpseMcpServer(options);
    const closed = new Promise<void>((resolve) => {
      server.onclose = resolve;
    });
    await server.connect(new StdioJsonRpcTransport());
    process.stdin.once('end', () => void server.close());
    await closed;
    await pool.close();
    return 0;
  },
};
