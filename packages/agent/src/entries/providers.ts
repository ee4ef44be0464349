// `@glimpse/agent/providers`: each wire API's serializer and its request body, typed with that provider's SDK (an
// optional peer dependency: the types are there when the SDK is installed), and the helpers that hand a body to an
// SDK. `serialize` (in `@glimpse/agent`) picks one by name.
export { serializeAnthropic } from '../providers/anthropic.js';
export type { AnthropicRequestBody } from '../providers/anthropic.js';
export { serializeOpenAIChat } from '../providers/openai-chat.js';
export type { OpenAIChatRequestBody } from '../providers/openai-chat.js';
export { serializeOpenAIResponses } from '../providers/openai-responses.js';
export type { OpenAIResponsesRequestBody } from '../providers/openai-responses.js';
export { serializeGemini } from '../providers/gemini.js';
export type { GeminiRequestBody } from '../providers/gemini.js';
export { toGeminiParameters } from '../providers/gemini-parameters.js';
export { serializeBedrock } from '../providers/bedrock.js';
export type { BedrockRequestBody } from '../providers/bedrock.js';
export { bedrockRequestFromJson } from '../providers/bedrock-request-json.js';
export { serializeOllama } from '../providers/ollama.js';
export type { OllamaRequestBody } from '../providers/ollama.js';
export type { RequestBodies } from '../providers/request-bodies.js';
export { requestJson } from '../providers/request-json.js';
export { placeholderFor } from '../providers/placeholders.js';
