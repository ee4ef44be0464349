import type { ProviderName } from '../route/capabilities.js';
import { isRetryable, readApiFailure, toModelClientError } from './api-failure.js';
import { isModelClientError } from './model-client-error.js';

export interface RetryOptions {
  /** Retries after the first attempt. Default 2. */
  maxRetries?: number;
  /** Wait before the first retry, doubled each time (with jitter) unless the API sends Retry-After. Default 500 ms. */
  retryDelayMs?: number;
}

/** The longest Retry-After honoured; a longer one fails now instead of hanging the agent. */
const MAX_RETRY_AFTER_MS = 60_000;

function retryAfterMs(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', stop);
      resolve();
    }
    function stop() {
      clearTimeout(timer);
      reject(signal?.reason);
    }
    signal?.addEventListener('abort', stop, { once: true });
  });
}

/**
 * Runs one streamed model call, again after a retryable failure (429, 408, 409, 5xx, no answer), the same way
 * for all six APIs: the SDKs' own retries are off. `attempt` streams text through `emit`; once any text has
 * reached the caller a failure is final, since a retry would show it twice. Any failure ends as a `ModelClientError`.
 */
export async function withRetries<T>(
  provider: ProviderName,
  credentials: string,
  options: RetryOptions & { signal?: AbortSignal | undefined; onText?: ((delta: string) => void) | undefined },
  attempt: (emit: (delta: string) => void) => Promise<T>,
): Promise<T> {
  const maxRetries = options.maxRetries ?? 2;
  const baseDelay = options.retryDelayMs ?? 500;
  let delivered = false;
  const emit = (delta: string) => {
    if (delta === '') return;
    delivered = true;
    options.onText?.(delta);
  };
  for (let attempts = 1; ; attempts++) {
    try {
      return await attempt(emit);
    } catch (error) {
      if (isModelClientError(error)) throw error;
      const failure = readApiFailure(error);
      if (options.signal?.aborted) failure.aborted = true;
      const wait = retryAfterMs(failure.retryAfter) ?? baseDelay * 2 ** (attempts - 1) * (0.75 + Math.random() / 2);
      if (delivered || attempts > maxRetries || !isRetryable(failure) || wait > MAX_RETRY_AFTER_MS)
        throw toModelClientError(provider, failure, { attempts, credentials, cause: error });
      await sleep(wait, options.signal).catch(() => {
        throw toModelClientError(provider, { ...failure, aborted: true }, { attempts, credentials, cause: error });
      });
    }
  }
}
