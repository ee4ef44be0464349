import { isMediaError } from '@glimpse/media';
import { isFileError } from '../fs/file-error.js';
import { modelErrorText } from '../results/model-error-text.js';
import type { ToolResult } from '../types.js';

/**
 * An expected failure as a result the model can act on: notes `before`, the code and the message written for
 * the model (modelErrorText; `tool` names the tool it may say the arguments of), then remedies `after`. Bugs are
 * rethrown.
 */
export function errorResult(error: unknown, before: string[] = [], after: string[] = [], tool?: string): ToolResult {
  if (!isFileError(error) && !isMediaError(error)) throw error;
  const message = modelErrorText(error, tool === undefined ? {} : { tool });
  return {
    parts: [{ type: 'text', text: [...before, `${error.code}: ${message}`, ...after].join('\n') }],
    isError: true,
  };
}
