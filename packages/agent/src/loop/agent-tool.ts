import type { Part, ToolDefinition } from '../types.js';
import type { ToolOutput } from '../results/read-tool-output.js';

/** A tool result before it becomes a message: parts whose media have been through `@glimpse/media`. */
export interface AgentToolResult {
  parts: Part[];
  isError: boolean;
}

export interface ToolCallContext {
  signal?: AbortSignal;
}

/** A tool that assembles its own result: the file tools (`read`, `view_file`) fit as they are. */
export interface ResultTool {
  definition: ToolDefinition;
  execute(args: Record<string, unknown>, context?: ToolCallContext): Promise<AgentToolResult>;
}

/**
 * A dumb tool: its handler returns raw output (a string, `{ text, attachments: [{ bytes | data }] }`,
 * parts or MCP content) and the loop assembles it with `toolResultFrom` for the loop's provider and
 * model, so every attachment goes through the media pipeline.
 */
export interface HandlerTool {
  definition: ToolDefinition;
  handler(args: Record<string, unknown>, context: ToolCallContext): Promise<ToolOutput> | ToolOutput;
}

/** What the loop runs. Expected failures are error results; a thrown error becomes one too, and the turn goes on. */
export type AgentTool = ResultTool | HandlerTool;
