export type * from './parts.js';
// Tool results, capabilities and provider serializers (issue 3).
export { toolResultFrom } from './tool.js';
export type { ToolResultInput } from './tool.js';
export type { Attachment, McpContent, ToolOutput } from './tool-output.js';
export { truncateToolText, DEFAULT_TRUNCATE } from './truncate.js';
export type { TruncateOptions } from './truncate.js';
export { capabilitiesFor, matchCapabilityRule, DEFAULT_CAPABILITY_RULES, PROVIDER_NAMES, isProviderName } from './capabilities.js';
export type { CapabilitiesQuery, CapabilityRule, ModelCapabilities, ProviderName } from './capabilities.js';
export { serialize, serializeAnthropic, serializeBedrock, serializeGemini, serializeOllama, serializeOpenAIChat, serializeOpenAIResponses, placeholderFor } from './providers/index.js';
export type { OmitReason, SerializedRequest, SerializeInput, Serialized, SerializeWarning } from './providers/index.js';
