export type * from './types.js';
// Tool results, capabilities and provider serializers (issue 3).
export { toolResultFrom } from './results/tool-result-from.js';
export type { ToolResultInput } from './results/tool-result-from.js';
export { truncateToolText, DEFAULT_TRUNCATE } from './results/truncate.js';
export type { TruncateOptions } from './results/truncate.js';
export {
  capabilitiesFor,
  matchCapabilityRule,
  DEFAULT_CAPABILITY_RULES,
  PROVIDER_NAMES,
  isProviderName,
} from './route/capabilities.js';
export type { CapabilitiesQuery, CapabilityRule, ModelCapabilities, ProviderName } from './route/capabilities.js';
export {
  serialize,
  serializeAnthropic,
  serializeBedrock,
  serializeGemini,
  serializeOllama,
  serializeOpenAIChat,
  serializeOpenAIResponses,
  placeholderFor,
} from './providers/serialize.js';
export type {
  OmitReason,
  SerializedRequest,
  SerializeInput,
  Serialized,
  SerializeWarning,
  RequestBodies,
} from './providers/serialize.js';
export type {
  AnthropicRequestBody,
  BedrockRequestBody,
  GeminiRequestBody,
  OllamaRequestBody,
  OpenAIChatRequestBody,
  OpenAIResponsesRequestBody,
} from './providers/serialize.js';
export { bedrockRequestFromJson } from './providers/bedrock-request-json.js';
export { toGeminiParameters } from './providers/gemini-parameters.js';
export { requestJson } from './providers/request-json.js';
// Session log, compaction and the agent loop (issue 4). The log's writer and readers need node:fs and
// node:crypto, so they are exported from `@glimpse/agent/node` (src/node.ts); their types are here too.
export type { SessionWriter, SessionWriterOptions } from './session/session-writer.js';
export type { LoadedEntry, LoadedSession } from './session/parse-session.js';
export { SessionError, isSessionError, SESSION_ERROR_CODES } from './session/session-error.js';
export type { SessionErrorCode } from './session/session-error.js';
export { SESSION_FORMAT_NAME, SESSION_FORMAT_VERSION } from './session/session-format.js';
export type { LoggedMessage, LoggedPart, SessionEntry, SessionHeader } from './session/session-format.js';
export {
  estimateMessageTokens,
  estimatePartTokens,
  estimateImageTokens,
  estimateDocumentTokens,
  estimateTextTokens,
  FIXED_IMAGE_CHARS,
} from './compaction/estimate-tokens.js';
export type { EstimateOptions } from './compaction/estimate-tokens.js';
export { anthropicImageTokens, anthropicWorkingSize } from './compaction/anthropic-image-tokens.js';
export { openAIImageRule, openAIImageTokens } from './compaction/openai-image-tokens.js';
export { geminiTileTokens } from './compaction/gemini-image-tokens.js';
export { chooseWindow } from './compaction/choose-window.js';
export type { ChooseWindowInput, ChosenWindow } from './compaction/choose-window.js';
export { runAgent } from './loop/run-agent.js';
export { createFitCache, fitConversation } from './fit-conversation.js';
export type { FitCache, FitConversationInput, FittedConversation } from './fit-conversation.js';
export type { AgentRun, AgentStep, RunAgentInput } from './loop/run-agent.js';
export type { InputModality, ModelClient, ModelRequest, ModelTurn } from './loop/model-client.js';
// The tool shape's earlier names, kept for apps that use them.
export type { Tool as ResultTool, ToolResult as AgentToolResult } from './types.js';
export { ReplayModel } from './loop/replay-model.js';
export { parseReplayScript, ReplayScriptError } from './loop/replay-script.js';
export type { ReplayScript } from './loop/replay-script.js';
// File tools, the file-system seam and MCP (issues 5 and 8). The Node file system (node:fs) is in
// `@glimpse/agent/node`; in Node, `@glimpse/agent` itself makes it the file tools' default (entries/index.node.ts).
export { FileError, isFileError, FILE_ERROR_CODES } from './fs/file-error.js';
export type { FileErrorCode } from './fs/file-error.js';
export type { FileStat, FileSystem, PathOps, ReadBytesOptions } from './fs/file-system.js';
export { defaultFileSystem, setDefaultFileSystem } from './fs/default-file-system.js';
export { denoFileSystem } from './fs/deno-file-system.js';
export { MemoryFileSystem } from './fs/memory-file-system.js';
export type { ByteSource, MemoryFileSystemOptions } from './fs/memory-file-system.js';
export { posixPaths } from './fs/posix-paths.js';
export { createFileTools } from './tools/file-tools.js';
export type { FileTools, FileToolsOptions } from './tools/file-tools.js';
export { createReadTool, READ_TOOL_DEFINITION } from './tools/read.js';
export type { ReadToolOptions } from './tools/read.js';
export { createViewFileTool, viewFile, VIEW_FILE_TOOL_DEFINITION } from './tools/view-file.js';
export type { ViewFileOutcome, ViewFileToolOptions } from './tools/view-file.js';
export { DEFAULT_MAX_FILE_BYTES } from './tools/file-limits.js';
export type {
  Tool as FileTool,
  ToolCallContext as FileToolCallContext,
  ToolResult as FileToolResult,
} from './types.js';
export { currentCapabilities, offersViewFile, requireImageInput } from './tools/capability-gate.js';
export type { CapabilityAnswer, CapabilitySource } from './tools/capability-gate.js';
export { resolveFilePath } from './tools/resolve-file-path.js';
export type { ResolvedFilePath } from './tools/resolve-file-path.js';
export { foldUnicodeSpaces } from './tools/unicode-spaces.js';
export { stageFile } from './tools/stage-file.js';
export { toAiSdkModelOutput } from './ai-sdk/to-ai-sdk-model-output.js';
export type { AiSdkContentItem, AiSdkModelOutput } from './ai-sdk/to-ai-sdk-model-output.js';
// The MCP server (run by `glimpse mcp`) is `@glimpse/agent/mcp` (src/mcp.ts): the SDK's server side would
// ride into every browser bundle. The adapter needs only the SDK's types.
export { wrapMcpTools } from './mcp/wrap-mcp-tools.js';
export type { McpToolClient, WrapMcpToolsOptions } from './mcp/wrap-mcp-tools.js';
export type { Tool as WrappedMcpTool, ToolResult as WrappedMcpToolResult } from './types.js';
