import type { MessageParam as AnthropicMessage, Tool as AnthropicTool } from '@anthropic-ai/sdk/resources/messages';
import type { Message as BedrockMessage, Tool as BedrockTool } from '@aws-sdk/client-bedrock-runtime';
import type { Content as GeminiContent, Tool as GeminiTool } from '@google/genai';
import type { Message as OllamaMessage, Tool as OllamaTool } from 'ollama';
import type { ChatCompletionFunctionTool, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { FunctionTool, ResponseInputItem } from 'openai/resources/responses/responses';
import type { ProviderName } from '../capabilities.js';
import { serializeAnthropic } from './anthropic.js';
import { serializeBedrock } from './bedrock.js';
import { serializeGemini } from './gemini.js';
import { serializeOllama } from './ollama.js';
import { serializeOpenAIChat } from './openai-chat.js';
import { serializeOpenAIResponses } from './openai-responses.js';
import type { SerializeInput, Serialized } from './types.js';

/** One provider's request pieces, tagged with the provider so callers can narrow to its SDK types. */
export type SerializedRequest =
  | ({ provider: 'anthropic' } & Serialized<AnthropicMessage, AnthropicTool>)
  | ({ provider: 'openai-chat' } & Serialized<ChatCompletionMessageParam, ChatCompletionFunctionTool>)
  | ({ provider: 'openai-responses' } & Serialized<ResponseInputItem, FunctionTool>)
  | ({ provider: 'gemini' } & Serialized<GeminiContent, GeminiTool>)
  | ({ provider: 'bedrock' } & Serialized<BedrockMessage, BedrockTool>)
  | ({ provider: 'ollama' } & Serialized<OllamaMessage, OllamaTool>);

/** Serializes a whole conversation for one provider: its native messages, its tool definitions, and warnings. */
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

export { serializeAnthropic, serializeBedrock, serializeGemini, serializeOllama, serializeOpenAIChat, serializeOpenAIResponses };
export { placeholderFor } from './placeholders.js';
export type { OmitReason, SerializeInput, Serialized, SerializeWarning } from './types.js';
