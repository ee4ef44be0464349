import type { ProviderName } from '../route/capabilities.js';
import type { AnthropicRequestBody } from './anthropic.js';
import type { BedrockRequestBody } from './bedrock.js';
import type { GeminiRequestBody } from './gemini.js';
import type { OllamaRequestBody } from './ollama.js';
import type { OpenAIChatRequestBody } from './openai-chat.js';
import type { OpenAIResponsesRequestBody } from './openai-responses.js';
import type { Serialized } from './types.js';

/**
 * Each route's request body, by wire API: the one place that ties a route name to its body type (and so to its
 * SDK's types). `serialize` and the live clients read bodies through it.
 */
export interface RequestBodies {
  anthropic: AnthropicRequestBody;
  'openai-chat': OpenAIChatRequestBody;
  'openai-responses': OpenAIResponsesRequestBody;
  gemini: GeminiRequestBody;
  bedrock: BedrockRequestBody;
  ollama: OllamaRequestBody;
}

/**
 * One provider's request body, tagged with the provider so callers can narrow to its SDK types. For one route
 * (`SerializedRequest<'anthropic'>`) it is that route's body; for a route known only at run time (the default,
 * every `ProviderName`) it is the union, which narrows on `provider`.
 */
export type SerializedRequest<P extends ProviderName = ProviderName> = {
  [Q in P]: { provider: Q } & Serialized<RequestBodies[Q]>;
}[P];
