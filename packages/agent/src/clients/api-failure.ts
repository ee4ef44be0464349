import type { ProviderName } from '../route/capabilities.js';
import { ModelClientError, type ModelClientErrorCode } from './model-client-error.js';

/** What a failed SDK call says about itself, read structurally: each SDK names its fields differently. */
export interface ApiFailure {
  /** HTTP status, when the API answered. */
  status?: number;
  /** Seconds (or a date) from a Retry-After header. */
  retryAfter?: string;
  /** The API's own message, when it gave one. */
  message: string;
  aborted: boolean;
  /** No answer at all (refused, reset, timed out): worth another attempt, unlike an answer the client cannot read. */
  unreachable: boolean;
  /** The SDK found no credentials to sign with (the AWS SDK's credential chain). */
  noCredentials: boolean;
}

/** System and undici error codes of a connection that failed or broke. */
const CONNECTION_CODES =
  /^(ECONN\w+|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN|ENETUNREACH|EHOSTUNREACH|UND_ERR_\w+|ERR_HTTP2_\w+|ERR_STREAM_PREMATURE_CLOSE)$/;
/** Error names the SDKs give a connection failure. */
const CONNECTION_NAMES = /^(APIConnectionError|APIConnectionTimeoutError|TimeoutError|RequestTimeout|FetchError)$/;
/** Messages of the same, where the SDK keeps neither a name nor a code. */
const CONNECTION_MESSAGES =
  /fetch failed|network|socket|terminated|timed? ?out|connection|protocol error|premature close|ECONN/i;

/** Whether an error, or any error in its cause chain, is a connection that failed or broke. */
function isUnreachable(error: unknown, depth = 0): boolean {
  if (!isRecord(error) || depth > 4) return false;
  const code = typeof error.code === 'string' ? error.code : '';
  const name = typeof error.name === 'string' ? error.name : '';
  const message = typeof error.message === 'string' ? error.message : '';
  if (CONNECTION_CODES.test(code) || CONNECTION_NAMES.test(name) || CONNECTION_MESSAGES.test(message)) return true;
  return isUnreachable(error.cause, depth + 1);
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

function header(headers: unknown, name: string): string | undefined {
  if (isRecord(headers) && typeof headers.get === 'function') {
    const value: unknown = headers.get(name);
    return typeof value === 'string' ? value : undefined;
  }
  if (isRecord(headers)) {
    const value = headers[name] ?? headers[name.toLowerCase()];
    return typeof value === 'string' ? value : undefined;
  }
  return undefined;
}

/**
 * Reads an error from any of the six SDKs: Anthropic and OpenAI (`status`, `headers`), @google/genai (`status`),
 * the AWS SDK (`$metadata.httpStatusCode`, `$response.headers`), ollama (`status_code`), or a fetch failure.
 */
export function readApiFailure(error: unknown): ApiFailure {
  if (!isRecord(error)) return { message: String(error), aborted: false, unreachable: false, noCredentials: false };
  const metadata = isRecord(error.$metadata) ? error.$metadata : {};
  const response = isRecord(error.$response) ? error.$response : {};
  const status = [error.status, error.status_code, error.statusCode, metadata.httpStatusCode].find(
    (value): value is number => typeof value === 'number',
  );
  const retryAfter = header(error.headers, 'retry-after') ?? header(response.headers, 'retry-after');
  const name = typeof error.name === 'string' ? error.name : '';
  const aborted =
    name === 'AbortError' ||
    name === 'APIUserAbortError' ||
    (error instanceof Error && /aborted/i.test(error.message) && status === undefined);
  const message = typeof error.message === 'string' && error.message !== '' ? error.message : name || 'unknown error';
  const noCredentials = name === 'CredentialsProviderError';
  const unreachable = status === undefined && !noCredentials && isUnreachable(error);
  return {
    ...(status !== undefined && { status }),
    ...(retryAfter !== undefined && { retryAfter }),
    message,
    aborted,
    unreachable,
    noCredentials,
  };
}

/** Whether another attempt may succeed: rate limits, timeouts, conflicts, server errors and network failures. */
export function isRetryable(failure: ApiFailure): boolean {
  if (failure.aborted) return false;
  if (failure.status === undefined) return failure.unreachable;
  return failure.status === 408 || failure.status === 409 || failure.status === 429 || failure.status >= 500;
}

const LABEL: Readonly<Record<ProviderName, string>> = {
  anthropic: 'Anthropic',
  'openai-chat': 'OpenAI',
  'openai-responses': 'OpenAI',
  gemini: 'Gemini',
  bedrock: 'Bedrock',
  ollama: 'Ollama',
};

/** A 413, from any provider: the request's size is at fault, not the model id or a field. */
const REQUEST_TOO_LARGE_ADVICE =
  "The request is too large for this endpoint (or a gateway in front of it): send a shorter history (runAgent's contextBudget) or fewer or smaller media (the fitters' maxRequestBytes sets a gateway's smaller cap).";

/** The error a caller sees: a stable code and a message that says what happened and what to do. */
export function toModelClientError(
  provider: ProviderName,
  failure: ApiFailure,
  context: { attempts: number; credentials: string; cause: unknown },
): ModelClientError {
  const who = LABEL[provider];
  const status = failure.status;
  const details = {
    provider,
    attempts: context.attempts,
    cause: context.cause,
    ...(status !== undefined && { status }),
  };
  const tried = context.attempts > 1 ? ` after ${context.attempts} attempts` : '';
  const make = (code: ModelClientErrorCode, advice: string) =>
    new ModelClientError(
      code,
      `${who} ${status === undefined ? 'failed' : `answered ${status}`}${tried}: ${failure.message.replace(/\.+$/, '')}. ${advice}`,
      details,
    );
  if (failure.aborted) return new ModelClientError('E_ABORTED', `The ${who} call was aborted.`, details);
  if (failure.noCredentials) return make('E_AUTH', `Set ${context.credentials}, or pass credentials.`);
  if (status === undefined && !failure.unreachable)
    return make(
      'E_BAD_RESPONSE',
      'The answer did not have the shape the SDK expects: check that the endpoint speaks this API.',
    );
  if (status === undefined)
    return make(
      'E_NETWORK',
      `Check the network and the endpoint${provider === 'ollama' ? ' (is `ollama serve` running?)' : ''}, then try again.`,
    );
  if (status === 401 || status === 403) return make('E_AUTH', `Check ${context.credentials}.`);
  if (status === 429) return make('E_RATE_LIMITED', 'Wait a little and try again, or lower the request rate.');
  if (status >= 500) return make('E_PROVIDER', 'The provider is having trouble; try again later.');
  if (status === 413) return make('E_BAD_REQUEST', REQUEST_TOO_LARGE_ADVICE);
  return make('E_BAD_REQUEST', 'Check the model id and the request (the message names the field).');
}
