import type { Tool, ToolDefinition } from '../types.js';
import { offersViewFile } from './capability-gate.js';
import { createReadTool } from './read.js';
import type { ReadToolOptions } from './read.js';
import { createViewFileTool } from './view-file.js';
import type { ViewFileToolOptions } from './view-file.js';

export type FileToolsOptions = ReadToolOptions & ViewFileToolOptions;

export interface FileTools {
  read: Tool;
  viewFile: Tool;
  /** The tools to offer the current model: `read` always, `view_file` only when the model is known to take images. */
  offered(): Tool[];
  /** Their definitions, for a serializer's `tools`. */
  definitions(): ToolDefinition[];
}

/** `read` and `view_file` sharing one file system, root, read cap and capability source. */
export function createFileTools(options: FileToolsOptions = {}): FileTools {
  const read = createReadTool(options);
  const viewFile = createViewFileTool(options);
  const offered = () => (offersViewFile(options) ? [read, viewFile] : [read]);
  return { read, viewFile, offered, definitions: () => offered().map((tool) => tool.definition) };
}
