import type { GoogleGenAI } from '@google/genai';
import { checkFileReference } from '../references/check-file-reference.js';
import { mentionsReference } from '../references/mentions-reference.js';
import type { DeleteMedia, UploadMedia } from '../references/media-upload.js';
import type { FileReference } from '../types.js';
import { describeCredentials } from './credentials.js';
import { attemptSignal, DEFAULT_TIMEOUT_MS, type LiveClientOptions } from './live-client-options.js';
import { withRetries } from './with-retries.js';
import { deletedOrGone } from './deleted-or-gone.js';

/** Files are kept 48 hours (ai.google.dev/gemini-api/docs/files); used when the API names no `expirationTime`. */
const GEMINI_FILE_LIFETIME_MS = 48 * 60 * 60 * 1000;
/** A file still PROCESSING is polled this often, this many times, before the upload counts as failed. */
const POLL_MS = 500;
const POLLS = 20;

/**
 * Uploads a medium with the File API (`files.upload`: the resumable upload protocol) and answers with its
 * `fileUri` and expiry. A file is named in requests only once ACTIVE; images are at once, a PDF may take a moment.
 * The File API is the Gemini Developer API's; Vertex AI has none (the SDK refuses, and media then go inline).
 */
export function uploadGeminiFile(client: () => Promise<GoogleGenAI>, options: LiveClientOptions): UploadMedia {
  return async (media, signal) => {
    const gemini = await client();
    const reference = await withRetries('gemini', describeCredentials('gemini'), { ...options, signal }, async () => {
      const abortSignal = attemptSignal(signal, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
      let file = await gemini.files.upload({
        file: new Blob([media.bytes.slice()], { type: media.mediaType }),
        config: { mimeType: media.mediaType, displayName: media.filename, abortSignal },
      });
      for (let poll = 0; file.state === 'PROCESSING' && poll < POLLS && file.name !== undefined; poll++) {
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        file = await gemini.files.get({ name: file.name, config: { abortSignal } });
      }
      if (!file.name || !file.uri) throw new Error('the File API answered without a name or uri');
      if (file.state !== undefined && file.state !== 'ACTIVE')
        throw new Error(`the uploaded file is ${file.state}${file.error?.message ? `: ${file.error.message}` : ''}`);
      const expiresAt = file.expirationTime ?? new Date(Date.now() + GEMINI_FILE_LIFETIME_MS).toISOString();
      return {
        provider: 'gemini',
        id: file.name,
        uri: file.uri,
        mimeType: file.mimeType ?? media.mediaType,
        expiresAt,
      } as const;
    });
    // After the retries: an empty name or uri, or an expiry that is no time, is an answer a retry does not mend.
    return checkFileReference(reference);
  };
}

/**
 * Whether a File API error says the store no longer holds `reference`: Gemini answers a file it does not hold (deleted
 * before, or expired) with 403 PERMISSION_DENIED "You do not have permission to access the File abc or it may not
 * exist", not 404. A 403 for a bad key or a project without access names no file, and stays a failure.
 */
export function geminiFileGone(error: unknown, status: unknown, reference: FileReference): boolean {
  return status === 403 && error instanceof Error && mentionsReference(error.message, reference);
}

/** Deletes an upload with `files.delete` (DELETE /v1beta/{name}); files also go by themselves after 48 hours. */
export function deleteGeminiFile(client: () => Promise<GoogleGenAI>, options: LiveClientOptions): DeleteMedia {
  return async (reference, signal) => {
    const gemini = await client();
    return withRetries('gemini', describeCredentials('gemini'), { ...options, signal }, () =>
      deletedOrGone(
        gemini.files.delete({
          name: reference.id,
          config: { abortSignal: attemptSignal(signal, options.timeoutMs ?? DEFAULT_TIMEOUT_MS) },
        }),
        (error, status) => geminiFileGone(error, status, reference),
      ),
    );
  };
}
