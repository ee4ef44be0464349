import type Anthropic from '@anthropic-ai/sdk';
import { checkFileReference } from '../references/check-file-reference.js';
import type { DeleteMedia, UploadMedia } from '../references/media-upload.js';
import { describeCredentials } from './credentials.js';
import { attemptSignal, DEFAULT_TIMEOUT_MS, type LiveClientOptions } from './live-client-options.js';
import { withRetries } from './with-retries.js';
import { deletedOrGone } from './deleted-or-gone.js';

/**
 * The Files API is a beta (docs.claude.com/en/api/files-create): the upload and every Messages request that names
 * a `file_id` carry this header. Files stay until deleted, so the reference has no expiry.
 */
export const ANTHROPIC_FILES_BETA = 'files-api-2025-04-14';

/** Uploads a medium with `beta.files.upload` (multipart POST /v1/files) and answers with its `file_id`
 * (checked: an answer without one fails the upload). */
export function uploadAnthropicFile(client: () => Promise<Anthropic>, options: LiveClientOptions): UploadMedia {
  return async (media, signal) => {
    const anthropic = await client();
    const reference = await withRetries(
      'anthropic',
      describeCredentials('anthropic'),
      { ...options, signal },
      async () => {
        const file = new File([media.bytes.slice()], media.filename, { type: media.mediaType });
        const uploaded = await anthropic.beta.files.upload(
          { file, betas: [ANTHROPIC_FILES_BETA] },
          { signal: attemptSignal(signal, options.timeoutMs ?? DEFAULT_TIMEOUT_MS) },
        );
        return { provider: 'anthropic', id: uploaded.id, mimeType: uploaded.mime_type || media.mediaType } as const;
      },
    );
    // After the retries: a 200 without an id is an answer, not a failure a retry mends.
    return checkFileReference(reference);
  };
}

/** Deletes an upload with `beta.files.delete` (DELETE /v1/files/{file_id}, the same beta header). */
export function deleteAnthropicFile(client: () => Promise<Anthropic>, options: LiveClientOptions): DeleteMedia {
  return async (reference, signal) => {
    const anthropic = await client();
    return withRetries('anthropic', describeCredentials('anthropic'), { ...options, signal }, () =>
      deletedOrGone(
        anthropic.beta.files.delete(
          reference.id,
          { betas: [ANTHROPIC_FILES_BETA] },
          { signal: attemptSignal(signal, options.timeoutMs ?? DEFAULT_TIMEOUT_MS) },
        ),
      ),
    );
  };
}
