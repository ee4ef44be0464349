/**
 * Runs at most `limit` tasks at once, the rest in arrival order. Decoding a 12-megapixel photo takes
 * ~50 MB of WASM memory per codec; ten parallel views must not take ten times that.
 */
export function limitConcurrency(limit: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await task();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}
