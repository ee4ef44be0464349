import type { Part, ToolDefinition } from '../parts.js';

/** A tool result before it becomes a message: parts whose media have been through `@glimpse/media`. */
export interface AgentToolResult {
  parts: Part[];
  isError: boolean;
}

/**
 * A tool the loop can run: the file tools (`read`, `view_file`) fit as they are; app handlers that return
 * raw bytes assemble their result with `toolResultFrom` first, so no medium bypasses the pipeline.
 * Expected failures are error results; a thrown error becomes one too, and the turn goes on.
 */
export interface AgentTool {
  definition: ToolDefinition;
  execute(args: Record<string, unknown>, context?: { signal?: AbortSignal }): Promise<AgentToolResult>;
}
