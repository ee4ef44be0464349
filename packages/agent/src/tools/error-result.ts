import { isMediaError } from '@glimpse/media';
import { isFileError } from '../fs/file-error.js';
import type { ToolResult } from '../types.js';

/** An expected failure as a result the model can act on: notes `before`, the code and message, then remedies `after`. Bugs are rethrown. */
export function errorResult(error: unknown, before: string[] = [], after: string[] = []): ToolResult {
  if (!isFileError(error) && !isMediaError(error)) throw error;
  return {
    parts: [{ type: 'text', text: [...before, `${error.code}: ${error.message}`, ...after].join('\n') }],
    isError: true,
  };
}
