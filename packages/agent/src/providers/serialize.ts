import type { ProviderName } from '../route/capabilities.js';
import { serializeAnthropic } from './anthropic.js';
import { serializeBedrock } from './bedrock.js';
import { serializeGemini } from './gemini.js';
import { serializeOllama } from './ollama.js';
import { serializeOpenAIChat } from './openai-chat.js';
import { serializeOpenAIResponses } from './openai-responses.js';
import type { SerializedRequest } from './request-bodies.js';
import type { SerializeInput } from './types.js';

/**
 * Serializes a whole conversation for one provider: its request body (system prompt, tools, messages) and warnings.
 * The result is typed for the route named (`RequestBodies`): `serialize('anthropic', …).body` spreads into
 * `anthropic.messages.create({ model, max_tokens, ...body })`; a route known only at run time gives the union,
 * tagged by `provider`.
 */
export function serialize<P extends ProviderName>(provider: P, input: SerializeInput): SerializedRequest<P>;
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
