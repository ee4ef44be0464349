import { isMediaError } from '@glimpse/media';
import { isFileError } from '../fs/file-error.js';
import type { FileToolResult } from './file-tool.js';

/** An expected failure as a result the model can act on: the code, then the message that says what to do. Bugs are rethrown. */
export function errorResult(error: unknown, prefix: string[] = []): FileToolResult {
  if (!isFileError(error) && !isMediaError(error)) throw error;
  return { parts: [{ type: 'text', text: [...prefix, `${error.code}: ${error.message}`].join('\n') }], isError: true };
}
