import { isMediaError } from '@glimpse/media';

/** The CLI's failure contract: one JSON line on stderr, `{"error":{"code":"E_…","message":"…"}}`, exit 1. */
export function printFailure(error: unknown): number {
  const code = isMediaError(error) ? error.code : typeof (error as { code?: unknown })?.code === 'string' && String((error as { code: string }).code).startsWith('E_') ? (error as { code: string }).code : 'E_INTERNAL';
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(JSON.stringify({ error: { code, message } }) + '\n');
  return 1;
}
