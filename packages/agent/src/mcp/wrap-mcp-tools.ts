import type { ProcessOptions } from '@glimpse/media';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool, ToolResult } from '../types.js';
import { toolResultFrom, type ToolResultInput } from '../results/tool-result-from.js';
import { presetOf, type PresetOptions } from '../route/resolve-route.js';

/** The two calls the adapter needs from a connected MCP `Client` (any server, any transport). */
export type McpToolClient = Pick<Client, 'listTools' | 'callTool'>;

/** The limits: `preset`, or a `route` resolved already, or `provider` and `model`; default `portable`. */
export interface WrapMcpToolsOptions extends PresetOptions {
  /** Explicit limits over the preset's. */
  limits?: Omit<ProcessOptions, 'provider'>;
  /** Prepended to every tool name, to keep several servers' tools apart (`"fs_"` → `fs_read`). */
  prefix?: string;
}

/**
 * Wraps every tool of a connected MCP client as a glimpse `Tool` (the agent loop runs it as it is: its results are
 * fitted already). Results go through `toolResultFrom`:
 * `image` content and `resource` blobs (PDFs, images) are processed by the media pipeline — never passed
 * through raw — text stays text, and audio or unknown content becomes a note. A failed call (thrown or
 * `isError`) is an error result the model can read; the turn goes on.
 */
export async function wrapMcpTools(client: McpToolClient, options: WrapMcpToolsOptions = {}): Promise<Tool[]> {
  const { prefix = '' } = options;
  // The limits are the same for every call: decided once, here.
  const preset = presetOf(options);
  const tools: Tool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? undefined : { cursor });
    for (const tool of page.tools) {
      tools.push({
        definition: {
          name: prefix + tool.name,
          description: tool.description ?? tool.title ?? tool.name,
          parameters: { ...tool.inputSchema },
        },
        execute: (args, context = {}) =>
          callWrapped(client, tool.name, args, { preset, limits: options.limits }, context.signal),
      });
    }
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return tools;
}

async function callWrapped(
  client: McpToolClient,
  name: string,
  args: Record<string, unknown>,
  fit: Pick<ToolResultInput, 'preset' | 'limits'>,
  signal: AbortSignal | undefined,
): Promise<ToolResult> {
  let output: ToolResultInput['output'];
  try {
    const result = await client.callTool({ name, arguments: args }, undefined, { signal });
    // Servers on protocol 2024-10-07 and older answer `{ toolResult }` instead of content.
    output =
      'content' in result && Array.isArray(result.content)
        ? { content: result.content, isError: result.isError === true }
        : { content: [{ type: 'text', text: JSON.stringify('toolResult' in result ? result.toolResult : result) }] };
  } catch (error) {
    return {
      parts: [
        {
          type: 'text',
          text: `The MCP tool ${name} failed: ${error instanceof Error ? error.message : String(error)}`,
        },
      ],
      isError: true,
    };
  }
  const message = await toolResultFrom({ toolCallId: '', toolName: name, output, ...fit, truncate: false });
  return { parts: message.parts, isError: message.isError };
}
