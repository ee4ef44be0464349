import type { ProviderName } from '../route/capabilities.js';
import { missingCredentials } from '../clients/credentials.js';
import { ModelClientError } from '../clients/model-client-error.js';
import type { ModelClient } from '../loop/model-client.js';

const API: Readonly<Record<ProviderName, string>> = {
  anthropic: 'the Anthropic API',
  'openai-chat': 'the OpenAI Chat Completions API',
  'openai-responses': 'the OpenAI Responses API',
  gemini: 'the Gemini API',
  bedrock: 'Amazon Bedrock',
  ollama: 'the Ollama server',
};

/**
 * The real model for `glimpse demo --live`, or an E_AUTH error naming the variables to set. The clients (and
 * through them the provider SDKs) load only here, so the keyless demo never needs an SDK.
 */
export async function liveDemoModel(options: {
  provider: ProviderName;
  model: string;
  env: Readonly<Record<string, string | undefined>>;
  onText: (delta: string) => void;
}): Promise<ModelClient> {
  const { provider, model, env, onText } = options;
  const missing = missingCredentials(provider, env);
  if (missing.length > 0) {
    const what =
      missing.length === 1
        ? `the environment variable ${missing[0]}`
        : `the environment variables ${missing.join(', ')}`;
    throw new ModelClientError(
      'E_AUTH',
      `glimpse demo --live --provider ${provider} calls ${API[provider]} and needs ${what}. Set ${missing.length === 1 ? 'it' : 'them'}, or run glimpse demo without --live for the keyless replay.`,
      { provider },
    );
  }
  const { createModelClient } = await import('../clients/create-model-client.js');
  return createModelClient({ provider, model, env, onText });
}
