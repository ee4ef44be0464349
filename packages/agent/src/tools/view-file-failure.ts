import { isMediaError, isRetryableMediaError } from '@glimpse/media';
import type { ToolResult } from '../types.js';
import { mediaLabelOf } from './describe-binary.js';
import { errorResult } from './error-result.js';

/**
 * A failed view as the result the model reads, after the notes gathered so far: a PDF over the page limit gets
 * the call that works, a format the host cannot decode what the model can ask for, a busy host (E_BUSY: the
 * file is fine) the same call again. Bugs are rethrown.
 */
export function viewFailure(error: unknown, notes: string[]): ToolResult {
  if (isRetryableMediaError(error)) {
    const seconds = Math.ceil(Number(error.details['retryAfterMs'] ?? 1000) / 1000);
    return errorResult(
      error,
      notes,
      [`Call view_file again with the same arguments in about ${seconds} s.`],
      'view_file',
    );
  }
  if (isMediaError(error) && error.code === 'E_TOO_LARGE' && typeof error.details.pages === 'number') {
    return errorResult(
      error,
      notes,
      [
        `Call view_file again with pages (for example "1-${Math.min(10, Number(error.details.maxPdfPages) || 10)}"), or with as: "text" to read its text.`,
      ],
      'view_file',
    );
  }
  if (isMediaError(error) && typeof error.details.decoderPackage === 'string') {
    // The model can neither install a package nor change the preset: it gets what it can act on, and the
    // developer's remedy stays in the outcome's `error` for the host to show.
    const text = `E_UNSUPPORTED: This ${mediaLabelOf(error.details.mediaType) ?? 'file'} cannot be shown here: the host has no decoder for it. Ask the user for a JPEG or PNG copy.`;
    return { parts: [{ type: 'text', text: [...notes, text].join('\n') }], isError: true };
  }
  return errorResult(error, notes, [], 'view_file');
}
