import { createUploadDeleter } from '../clients/create-upload-deleter.js';
import { deleteSessionUploads, type UploadDeleters } from '../references/delete-session-uploads.js';
import type { SessionAppender } from '../session/session-store.js';
import type { FileReference } from '../types.js';

const named = ({ provider, id }: FileReference) => ({ provider, id });

/**
 * `glimpse session LOCATION --delete-uploads`: deletes every upload the session's media lines name from its
 * provider's file store, through the official SDKs, with the keys of the environment (ANTHROPIC_API_KEY,
 * OPENAI_API_KEY, GEMINI_API_KEY; each SDK's base-URL variable is honoured), and writes each one deleted or gone to
 * the log as expired, so a resume uploads afresh. Prints one JSON object; exit 1 when a delete failed (it may be
 * run again: what is gone is said so).
 */
export async function deleteUploads(session: SessionAppender): Promise<number> {
  const media = session.resumed?.media ?? [];
  const providers = new Set(media.flatMap((line) => (line.reference ? [line.reference.provider] : [])));
  const clients: UploadDeleters = {};
  for (const provider of providers) clients[provider] = createUploadDeleter(provider, { maxRetries: 2 });
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
