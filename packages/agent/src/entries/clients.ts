// Live model clients (`@glimpse/agent/clients`). Each imports its provider's SDK on first use; the SDKs are
// optional peer dependencies, so install the ones you talk to.
export { createModelClient } from '../clients/create-model-client.js';
export { createUploadDeleter } from '../clients/create-upload-deleter.js';
export { createAnthropicClient, ANTHROPIC_DEFAULT_MAX_TOKENS } from '../clients/anthropic-client.js';
export { createOpenAIChatClient } from '../clients/openai-chat-client.js';
export { createOpenAIResponsesClient } from '../clients/openai-responses-client.js';
export { createGeminiClient } from '../clients/gemini-client.js';
export { createBedrockClient } from '../clients/bedrock-client.js';
export type { BedrockClientOptions } from '../clients/bedrock-client.js';
export { createOllamaClient, OLLAMA_DEFAULT_HOST } from '../clients/ollama-client.js';
export type { LiveClientOptions } from '../clients/live-client-options.js';
export type { RetryOptions } from '../clients/with-retries.js';
export { ModelClientError, isModelClientError, MODEL_CLIENT_ERROR_CODES } from '../clients/model-client-error.js';
export type { ModelClientErrorCode, ModelClientErrorDetails } from '../clients/model-client-error.js';
export { CREDENTIAL_VARIABLES, missingCredentials } from '../clients/credentials.js';
