// Each provider's documented request body, written from its API reference as strict schemas: an unknown key, a
// misspelt field, a wrong enum value or a base64 string with a data-URL prefix where the API wants none fails.
// They cover the part of each API that glimpse emits, and the rules the reference states in prose (turn order,
// per-message caps, which blocks may sit where). Tests only: the library never validates its own output at run time.
// One file per wire API; this one only gathers them for wire-schemas.test.ts.
export { anthropicRequest } from './anthropic-request.js';
export { openAIChatRequest } from './openai-chat-request.js';
export { openAIResponsesRequest } from './openai-responses-request.js';
export { geminiRequest } from './gemini-request.js';
export { bedrockRequest } from './bedrock-request.js';
export { ollamaRequest } from './ollama-request.js';
