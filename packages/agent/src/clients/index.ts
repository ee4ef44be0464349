// Live model clients (`@glimpse/agent/clients`). Each imports its provider's SDK on first use; the SDKs are
// optional peer dependencies, so install the ones you talk to.
export { createModelClient } from './create-model-client.js';
export { createAnthropicClient, ANTHROPIC_DEFAULT_MAX_TOKENS } from './anthropic-client.js';
export { createOpenAIChatClient } from './openai-chat-client.js';
export { createOpenAIResponsesClient } from './openai-responses-client.js';
export { createGeminiClient } from './gemini-client.js';
export { createBedrockClient } from './bedrock-client.js';
export type { BedrockClientOptions } from './bedrock-client.js';
export { createOllamaClient, OLLAMA_DEFAULT_HOST } from './ollama-client.js';
export type { LiveClientOptions } from './live-client-options.js';
export type { RetryOptions } from './with-retries.js';
export { ModelClientError, isModelClientError } from './model-client-error.js';
export type { ModelClientErrorCode } from './model-client-error.js';
export { CREDENTIAL_VARIABLES, missingCredentials } from './credentials.js';
