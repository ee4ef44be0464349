import type { ProviderName } from '../route/capabilities.js';
import { ModelClientError } from './model-client-error.js';

/**
 * The official SDK each live client speaks through: optional peer dependencies of @glimpse/agent (package.json),
 * of which an app installs the ones it talks to. docs/agent-adapters.md's table is generated from this.
 */
export const SDK_PACKAGES: Readonly<Record<ProviderName, string>> = {
  anthropic: '@anthropic-ai/sdk',
  'openai-chat': 'openai',
  'openai-responses': 'openai',
  gemini: '@google/genai',
  bedrock: '@aws-sdk/client-bedrock-runtime',
  ollama: 'ollama',
};

/**
 * Imports a provider's SDK on first use (`load` is its literal `import()`, so bundlers see it), so a bundle for a
 * Worker or a browser never pulls in the others; a missing one is `E_SDK_MISSING` with the install line.
 */
export async function loadSdk<T>(provider: ProviderName, load: () => Promise<T>): Promise<T> {
  const packageName = SDK_PACKAGES[provider];
  try {
    return await load();
  } catch (error) {
    throw new ModelClientError(
      'E_SDK_MISSING',
      `The ${provider} client needs ${packageName}: npm install ${packageName}`,
      { provider, cause: error },
    );
  }
}
