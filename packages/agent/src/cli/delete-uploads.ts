import { createModelClient } from '../clients/create-model-client.js';
import { deleteSessionUploads, type UploadDeleters } from '../references/delete-session-uploads.js';
import type { StoredSession } from '../session/session-store.js';
import type { FileReference } from '../types.js';

/** The client that deletes from each provider's store; the model id is not used by a delete. */
const STORE_ROUTES = { anthropic: 'anthropic', openai: 'openai-responses', gemini: 'gemini' } as const;

const named = ({ provider, id }: FileReference) => ({ provider, id });

/**
 * `glimpse session LOCATION --delete-uploads`: deletes every upload the session's media lines name from its
 * provider's file store, through the official SDKs, with the keys of the environment (ANTHROPIC_API_KEY,
 * OPENAI_API_KEY, GEMINI_API_KEY; each SDK's base-URL variable is honoured). Prints one JSON object; exit 1 when
 * a delete failed (it may be run again: what is gone is said so).
 */
export async function deleteUploads(session: StoredSession): Promise<number> {
  const providers = new Set((session.media ?? []).flatMap((line) => (line.reference ? [line.reference.provider] : [])));
  const clients: UploadDeleters = {};
  for (const provider of providers)
    clients[provider] = createModelClient({
      provider: STORE_ROUTES[provider],
      model: 'files',
      fileReferences: true,
      maxRetries: 2,
    });
  const result = await deleteSessionUploads(session, clients);
  const failed = result.failed.map(({ reference, error }) => ({
    ...named(reference),
    error: {
      code: typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : 'E_INTERNAL',
      message: error instanceof Error ? error.message : String(error),
    },
  }));
  process.stdout.write(
    `${JSON.stringify({
      deleted: result.deleted.map(named),
      gone: result.gone.map(named),
      skipped: result.skipped.map(named),
      failed,
    })}\n`,
  );
  return failed.length > 0 ? 1 : 0;
}
