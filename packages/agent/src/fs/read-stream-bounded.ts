import { aborted, fileTooLarge } from './file-error.js';

/**
 * Reads a byte stream into one buffer, stopping at the first byte past `maxBytes` (`E_FILE_TOO_LARGE`)
 * or when `signal` fires (`E_ABORTED`, even while a read is pending). The stream is cancelled either way,
 * so the source stops producing. Shared by the Deno and memory file systems.
 */
export async function readStreamBounded(
  stream: ReadableStream<Uint8Array>,
  { path, maxBytes, signal }: { path: string; maxBytes: number; signal?: AbortSignal },
): Promise<Uint8Array> {
  if (signal?.aborted) {
    await stream.cancel().catch(() => undefined);
    throw aborted(path, signal.reason);
  }
  const reader = stream.getReader();
  // Cancelling the reader settles a pending read() at once, so an endless source cannot hang the abort.
  const onAbort = () => void reader.cancel().catch(() => undefined);
  signal?.addEventListener('abort', onAbort, { once: true });
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (signal?.aborted) throw aborted(path, signal.reason);
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw fileTooLarge(path, { atLeast: total }, maxBytes);
      }
      chunks.push(value);
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    reader.releaseLock();
  }
  return concatChunks(chunks, total);
}

export function concatChunks(chunks: Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
