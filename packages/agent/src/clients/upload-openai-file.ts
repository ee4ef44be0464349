import type OpenAI from 'openai';
import { checkFileReference } from '../references/check-file-reference.js';
import type { DeleteMedia, UploadMedia } from '../references/media-upload.js';
import { describeCredentials } from './credentials.js';
import { attemptSignal, DEFAULT_TIMEOUT_MS, type LiveClientOptions } from './live-client-options.js';
import { withRetries } from './with-retries.js';
import { deletedOrGone } from './deleted-or-gone.js';

/**
 * Uploads a medium to OpenAI Files (`files.create`, multipart POST /v1/files), with the purpose its kind is
 * documented with: an image for `input_image.file_id` as `vision` (the API reference: "vision" for image file
 * inputs; the images and vision guide uploads with it), a PDF for `input_file`/`file.file_id` as `user_data` (the
 * file inputs guide). Files other than batch ones are kept until deleted (SDK `FileCreateParams.expires_after`);
 * an `expires_at` the API reports is kept.
 */
export function uploadOpenAIFile(
  provider: 'openai-chat' | 'openai-responses',
  client: () => Promise<OpenAI>,
  options: LiveClientOptions,
): UploadMedia {
  return async (media, signal) => {
    const openai = await client();
    const reference = await withRetries(provider, describeCredentials(provider), { ...options, signal }, async () => {
      const file = new File([media.bytes.slice()], media.filename, { type: media.mediaType });
      const uploaded = await openai.files.create(
        { file, purpose: media.mediaType.startsWith('image/') ? 'vision' : 'user_data' },
        { signal: attemptSignal(signal, options.timeoutMs ?? DEFAULT_TIMEOUT_MS) },
      );
      return {
        provider: 'openai',
        id: uploaded.id,
        mimeType: media.mediaType,
        ...(typeof uploaded.expires_at === 'number' &&
          Number.isFinite(uploaded.expires_at) && {
            expiresAt: new Date(uploaded.expires_at * 1000).toISOString(),
          }),
      } as const;
    });
    // After the retries: a 200 without an id is an answer, not a failure a retry mends.
    return checkFileReference(reference);
  };
}

/** Deletes an upload with `files.delete` (DELETE /v1/files/{file_id}). */
export function deleteOpenAIFile(
  provider: 'openai-chat' | 'openai-responses',
  client: () => Promise<OpenAI>,
  options: LiveClientOptions,
): DeleteMedia {
  return async (reference, signal) => {
    const openai = await client();
    return withRetries(provider, describeCredentials(provider), { ...options, signal }, () =>
      deletedOrGone(
        openai.files.delete(reference.id, { signal: attemptSignal(signal, options.timeoutMs ?? DEFAULT_TIMEOUT_MS) }),
      ),
    );
  };
}
