import type { Part, ToolDefinition } from '../types.js';

/** What a file tool hands back: parts ready for a `ToolResultMessage` (media already through the pipeline). */
export interface FileToolResult {
  parts: Part[];
  /** The call failed (missing file, refused path, unreadable content); the parts say why and what to do. */
  isError: boolean;
}

export interface FileToolCallContext {
  /** Cancels the read; the result is then an `E_ABORTED` error. */
  signal?: AbortSignal;
}

/**
 * A file tool: its definition (name, description, JSON schema: each serializer emits it in its
 * provider's format) and its implementation. `execute` turns every expected failure into an error
 * result the model can act on; it throws only on bugs.
 */
export interface FileTool {
  definition: ToolDefinition;
  execute(args: Record<string, unknown>, context?: FileToolCallContext): Promise<FileToolResult>;
}

/** Files above this are refused by default (50 MB: larger than any provider takes, small enough to buffer). */
export const DEFAULT_MAX_FILE_BYTES = 50_000_000;
