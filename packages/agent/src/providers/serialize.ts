import type { ProviderName } from '../route/capabilities.js';
import { serializeAnthropic, type AnthropicRequestBody } from './anthropic.js';
import { serializeBedrock, type BedrockRequestBody } from './bedrock.js';
import { serializeGemini, type GeminiRequestBody } from './gemini.js';
import { serializeOllama, type OllamaRequestBody } from './ollama.js';
import { serializeOpenAIChat, type OpenAIChatRequestBody } from './openai-chat.js';
import { serializeOpenAIResponses, type OpenAIResponsesRequestBody } from './openai-responses.js';
import type { SerializeInput, Serialized } from './types.js';

/** Each route's request body, by wire API. */
export interface RequestBodies {
  anthropic: AnthropicRequestBody;
  'openai-chat': OpenAIChatRequestBody;
  'openai-responses': OpenAIResponsesRequestBody;
  gemini: GeminiRequestBody;
  bedrock: BedrockRequestBody;
  ollama: OllamaRequestBody;
}

/** One provider's request body, tagged with the provider so callers can narrow to its SDK types. */
export type SerializedRequest = { [P in ProviderName]: { provider: P } & Serialized<RequestBodies[P]> }[ProviderName];

/** Serializes a whole conversation for one provider: its request body (system prompt, tools, messages) and warnings. */
export function serialize(provider: ProviderName, input: SerializeInput): SerializedRequest {
  switch (provider) {
    case 'anthropic':
      return { provider, ...serializeAnthropic(input) };
    case 'openai-chat':
      return { provider, ...serializeOpenAIChat(input) };
    case 'openai-responses':
      return { provider, ...serializeOpenAIResponses(input) };
    case 'gemini':
      return { provider, ...serializeGemini(input) };
    case 'bedrock':
      return { provider, ...serializeBedrock(input) };
    case 'ollama':
      return { provider, ...serializeOllama(input) };
    default: {
      const exhaustive: never = provider;
      throw new TypeError(`unknown provider ${JSON.stringify(exhaustive)}`);
    }
  }
}

export {
  serializeAnthropic,
  serializeBedrock,
  serializeGemini,
  serializeOllama,
  serializeOpenAIChat,
  serializeOpenAIResponses,
};
export type {
  AnthropicRequestBody,
  BedrockRequestBody,
  GeminiRequestBody,
  OllamaRequestBody,
  OpenAIChatRequestBody,
  OpenAIResponsesRequestBody,
};
export { placeholderFor } from './placeholders.js';
export type { OmitReason, SerializeInput, Serialized, SerializeWarning } from './types.js';
