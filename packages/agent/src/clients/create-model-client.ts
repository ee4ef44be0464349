import type { ProviderName } from '../route/capabilities.js';
import type { ModelClient } from '../loop/model-client.js';
import { createAnthropicClient } from './anthropic-client.js';
import { createBedrockClient, type BedrockClientOptions } from './bedrock-client.js';
import { createGeminiClient } from './gemini-client.js';
import { createOllamaClient } from './ollama-client.js';
import { createOpenAIChatClient } from './openai-chat-client.js';
import { createOpenAIResponsesClient } from './openai-responses-client.js';

/** The live client for a route: `runAgent({ model: createModelClient({ provider, model }), provider, … })`. */
export function createModelClient(options: BedrockClientOptions & { provider: ProviderName }): ModelClient {
  switch (options.provider) {
    case 'anthropic':
      return createAnthropicClient(options);
    case 'openai-chat':
      return createOpenAIChatClient(options);
    case 'openai-responses':
      return createOpenAIResponsesClient(options);
    case 'gemini':
      return createGeminiClient(options);
    case 'bedrock':
      return createBedrockClient(options);
    case 'ollama':
      return createOllamaClient(options);
    default: {
      const exhaustive: never = options.provider;
      throw new TypeError(`unknown provider ${JSON.stringify(exhaustive)}`);
    }
  }
}
