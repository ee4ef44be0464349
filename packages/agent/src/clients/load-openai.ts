import type OpenAI from 'openai';
import { credentialFromEnv, missingApiKey } from './credentials.js';
import { processEnv, type LiveClientOptions } from './live-client-options.js';
import { loadSdk } from './load-sdk.js';

/** One `openai` SDK client for Chat or Responses, made on first use; its own retries off (see withRetries). */
export function loadOpenAI(
  provider: 'openai-chat' | 'openai-responses',
  options: LiveClientOptions,
): () => Promise<OpenAI> {
  const apiKey = options.apiKey ?? credentialFromEnv(provider, options.env ?? processEnv());
  let sdk: Promise<OpenAI> | undefined;
  return () => {
    if (apiKey === undefined && options.baseUrl === undefined) {
      return Promise.reject(missingApiKey(provider, 'OpenAI'));
    }
    // A local OpenAI-compatible server takes any key.
    return (sdk ??= loadSdk(provider, () => import('openai')).then(
      ({ default: Sdk }) =>
        new Sdk({
          apiKey: apiKey ?? 'none',
          ...(options.baseUrl !== undefined && { baseURL: options.baseUrl }),
          maxRetries: 0,
        }),
    ));
  };
}
