import type { DeleteMedia } from '../references/media-upload.js';
import type { FileReference } from '../types.js';
import { createModelClient } from './create-model-client.js';
import type { LiveClientOptions } from './live-client-options.js';

/** The route whose live client reaches each provider's file store (OpenAI's Files API is the same for both). */
const STORE_ROUTES = { anthropic: 'anthropic', openai: 'openai-responses', gemini: 'gemini' } as const;

/**
 * A model id no request is ever made with: a file-store delete (`beta.files.delete`, `files.delete`) names only
 * the file, and this client is handed out for its `deleteMedia` alone, so its `next` is never called.
 */
const NO_MODEL = 'glimpse-file-store';

/**
 * Deletes uploads from one provider's file store through its official SDK, with the key and base URL of the
 * options or the environment (as the live clients: `CREDENTIAL_VARIABLES`, each SDK's base-URL variable): what
 * `deleteSessionUploads` takes per provider when no model client is at hand (`glimpse session --delete-uploads`).
 */
export function createUploadDeleter(
  provider: FileReference['provider'],
  options: Omit<LiveClientOptions, 'model' | 'maxTokens' | 'inputModalities' | 'onText' | 'fileReferences'> = {},
): { deleteMedia: DeleteMedia } {
  const client = createModelClient({
    ...options,
    provider: STORE_ROUTES[provider],
    model: NO_MODEL,
    fileReferences: true,
  });
  const { deleteMedia } = client;
  if (deleteMedia === undefined) throw new Error(`the ${provider} client has no deleteMedia`); // fileReferences: true gives it
  return { deleteMedia };
}
