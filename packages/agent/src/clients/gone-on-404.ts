/**
 * A file-store delete, answered: `deleted`, or `gone` when the store answers 404 (it no longer holds the file:
 * deleted before, or expired), which is what the caller wanted, or when `gone` says the error means the same (a
 * store that answers otherwise: Gemini's 403 naming the file). The SDKs' errors carry the HTTP status.
 */
export async function goneOn404(
  deletion: Promise<unknown>,
  gone?: (error: unknown, status: unknown) => boolean,
): Promise<'deleted' | 'gone'> {
  try {
    await deletion;
    return 'deleted';
  } catch (error) {
    const status = typeof error === 'object' && error !== null ? Reflect.get(error, 'status') : undefined;
    if (status === 404 || gone?.(error, status) === true) return 'gone';
    throw error;
  }
}
