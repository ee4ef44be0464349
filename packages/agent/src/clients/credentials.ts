import type { ProviderName } from '../route/capabilities.js';
import { ModelClientError } from './model-client-error.js';

/**
 * Where each route's credentials come from. The first variable of a list that is set is used; Bedrock signs with
 * the AWS SDK's default chain (the variables below, a profile, an instance role) or takes an API key.
 */
export const CREDENTIAL_VARIABLES: Readonly<Record<ProviderName, readonly string[]>> = {
  anthropic: ['ANTHROPIC_API_KEY'],
  'openai-chat': ['OPENAI_API_KEY'],
  'openai-responses': ['OPENAI_API_KEY'],
  gemini: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
  bedrock: ['AWS_BEARER_TOKEN_BEDROCK', 'AWS_ACCESS_KEY_ID', 'AWS_PROFILE'],
  ollama: [],
};

/** How to say which credentials a route needs, for error messages: "ANTHROPIC_API_KEY", "GEMINI_API_KEY or GOOGLE_API_KEY". */
export function describeCredentials(provider: ProviderName): string {
  const variables = CREDENTIAL_VARIABLES[provider];
  if (provider === 'bedrock')
    return 'the AWS credentials (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE, or AWS_BEARER_TOKEN_BEDROCK) and AWS_REGION';
  if (variables.length === 0) return 'the Ollama server (OLLAMA_HOST)';
  return variables.join(' or ');
}

/** The error for a route whose API key was neither passed nor found in the environment (a local server needs none). */
export function missingApiKey(provider: ProviderName, vendor: string): ModelClientError {
  return new ModelClientError('E_AUTH', `No ${vendor} API key: set ${describeCredentials(provider)} or pass apiKey.`, {
    provider,
  });
}

/** The key for a route from the environment, or undefined. Ollama needs none; Bedrock's chain is the SDK's. */
export function credentialFromEnv(
  provider: ProviderName,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  for (const name of CREDENTIAL_VARIABLES[provider]) {
    const value = env[name];
    if (value !== undefined && value !== '') return value;
  }
  return undefined;
}

/**
 * The variables a live run is missing, for `glimpse demo --live`: empty when it can start. Bedrock also needs
 * a region; a secret key goes with an access key id.
 */
export function missingCredentials(
  provider: ProviderName,
  env: Readonly<Record<string, string | undefined>>,
): string[] {
  const set = (name: string) => (env[name] ?? '') !== '';
  switch (provider) {
    case 'ollama':
      return [];
    case 'bedrock': {
      const missing: string[] = [];
      if (!set('AWS_REGION') && !set('AWS_DEFAULT_REGION')) missing.push('AWS_REGION');
      if (!set('AWS_BEARER_TOKEN_BEDROCK') && !set('AWS_PROFILE')) {
        if (!set('AWS_ACCESS_KEY_ID')) missing.push('AWS_ACCESS_KEY_ID');
        if (!set('AWS_SECRET_ACCESS_KEY')) missing.push('AWS_SECRET_ACCESS_KEY');
      }
      return missing;
    }
    case 'anthropic':
    case 'openai-chat':
    case 'openai-responses':
    case 'gemini':
      return credentialFromEnv(provider, env) === undefined ? [CREDENTIAL_VARIABLES[provider].join(' or ')] : [];
    default: {
      const exhaustive: never = provider;
      return exhaustive;
    }
  }
}
