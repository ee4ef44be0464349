// `@glimpse/agent/compaction`: the token estimate of each part, and each provider's own image-token rule.
// `estimateMessageTokens` and `chooseWindow` (in `@glimpse/agent`) are built from these.
export {
  estimatePartTokens,
  estimateImageTokens,
  estimateDocumentTokens,
  estimateTextTokens,
  FIXED_IMAGE_CHARS,
} from '../compaction/estimate-tokens.js';
export { estimateMessageBytes, estimatePartBytes } from '../compaction/estimate-bytes.js';
export { anthropicImageTokens, anthropicWorkingSize } from '../compaction/anthropic-image-tokens.js';
export { openAIImageRule, openAIImageTokens } from '../compaction/openai-image-tokens.js';
export { geminiTileTokens } from '../compaction/gemini-image-tokens.js';
