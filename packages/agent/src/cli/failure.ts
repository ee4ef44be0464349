/**
 * The CLI's failure contract: one JSON line on stderr, `{"error":{"code":"E_…","message":"…"}}`, exit 1.
 * Every glimpse error type (MediaError, FileError, SessionError, …) carries a stable `E_…` code; anything
 * else is a bug and reported as E_INTERNAL.
 */
export function printFailure(error: unknown): number {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`${JSON.stringify({ error: { code: stableCode(error), message } })}\n`);
  return 1;
}

function stableCode(error: unknown): string {
  if (error instanceof Error && 'code' in error && typeof error.code === 'string' && error.code.startsWith('E_'))
    return error.code;
  return 'E_INTERNAL';
}
