/**
 * Which of the two ends a file-store delete reached: `deleted`, or `gone` when the store says it no longer holds the
 * file (deleted before, or expired), which is what the caller wanted too. The store says so with a 404, or with the
 * error `alsoGone` recognises (a store that answers otherwise: Gemini's 403 PERMISSION_DENIED naming the file). Any
 * other failure is thrown. The SDKs' errors carry the HTTP status.
 */
export async function deletedOrGone(
  deletion: Promise<unknown>,
  alsoGone?: (error: unknown, status: unknown) => boolean,
): Promise<'deleted' | 'gone'> {
  try {
    await deletion;
    return 'deleted';
  } catch (error) {
    const status = typeof error === 'object' && error !== null ? Reflect.get(error, 'status') : undefined;
    if (status === 404 || alsoGone?.(error, status) === true) return 'gone';
    throw error;
  }
}
