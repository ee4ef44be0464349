import { GlimpseError, isErrorOf } from '../errors.js';
import type { ProviderName } from '../route/capabilities.js';

/**
 * Stable codes of a failed live model call, and when each is raised. The table in docs/agent-adapters.md is
 * generated from this (`npm run docs`).
 */
export const MODEL_CLIENT_ERROR_CODES = {
  E_AUTH:
    'the key is missing, wrong or lacks access (401/403), or no key or AWS credentials are set: the message names the variables',
  E_BAD_REQUEST: 'the API refused the request as sent (400/404/413/422): model id, limits, schema',
  E_RATE_LIMITED: '429 after every retry',
  E_PROVIDER: 'the API failed (5xx, overloaded) after every retry',
  E_NETWORK: 'no answer (connection refused, reset, timed out) after every retry',
  E_SDK_MISSING: "the provider's SDK is not installed: the message has the `npm install` line",
  E_ABORTED: "the caller's signal stopped the call",
  E_BAD_RESPONSE: 'the API answered with something the SDK cannot read (not retried: a retry reads the same)',
} as const satisfies Record<`E_${string}`, string>;

export type ModelClientErrorCode = keyof typeof MODEL_CLIENT_ERROR_CODES;

/** What a failed call knew: the route, the HTTP status, how many attempts were made, the SDK's own error. */
export interface ModelClientErrorDetails {
  provider: ProviderName;
  status?: number;
  attempts?: number;
  cause?: unknown;
}

/** A live model call that failed, with what to do about it in the message. */
export class ModelClientError extends GlimpseError<ModelClientErrorCode, ModelClientErrorDetails> {
  constructor(code: ModelClientErrorCode, message: string, details: ModelClientErrorDetails) {
    super(
      'ModelClientError',
      code,
      message,
      details,
      details.cause === undefined ? undefined : { cause: details.cause },
    );
  }
}

export function isModelClientError(error: unknown): error is ModelClientError {
  return isErrorOf<ModelClientError>(error, 'ModelClientError', MODEL_CLIENT_ERROR_CODES);
}
