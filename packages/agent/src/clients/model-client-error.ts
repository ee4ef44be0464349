import type { ProviderName } from '../route/capabilities.js';

/**
 * - `E_AUTH`: the key is missing, wrong or lacks access (401/403).
 * - `E_BAD_REQUEST`: the API refused the request as sent (400/404/413/422): model id, limits, schema.
 * - `E_RATE_LIMITED`: 429 after every retry.
 * - `E_PROVIDER`: the API failed (5xx, overloaded) after every retry.
 * - `E_NETWORK`: no answer (connection refused, reset, timed out) after every retry.
 * - `E_SDK_MISSING`: the provider's SDK is not installed.
 * - `E_ABORTED`: the caller's signal stopped the call.
 * - `E_BAD_RESPONSE`: the API answered with something the client cannot read.
 */
export type ModelClientErrorCode =
  | 'E_AUTH'
  | 'E_BAD_REQUEST'
  | 'E_RATE_LIMITED'
  | 'E_PROVIDER'
  | 'E_NETWORK'
  | 'E_SDK_MISSING'
  | 'E_ABORTED'
  | 'E_BAD_RESPONSE';

/** A live model call that failed, with what to do about it in the message. */
export class ModelClientError extends Error {
  override readonly name = 'ModelClientError';

  constructor(
    readonly code: ModelClientErrorCode,
    message: string,
    readonly details: { provider: ProviderName; status?: number; attempts?: number; cause?: unknown },
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
  }
}

export function isModelClientError(error: unknown): error is ModelClientError {
  return error instanceof ModelClientError;
}
