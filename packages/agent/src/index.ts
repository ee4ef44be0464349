// `@glimpse/agent`: the runtime-neutral core (no `node:*` import). What an agent needs end to end — the contract,
// tool results, the route, serialize, the loop, the file tools — is here; the rest has a subpath of its own (see
// docs/packages.md): `/providers` (each serializer and its SDK-typed body), `/compaction` (the per-provider token
// rules), `/session` (the log's format and errors), `/fs` (file systems and path helpers), `/tools` (the file
// tools' parts), and the Node, MCP, AI SDK, pi and live-client entries. In Node, entries/index.node.ts adds the
// local disk as the file tools' default file system.

// The contract: parts, messages, the tool shape, what a handler may return.
export type * from './types.js';
// The tool shape's earlier names, kept for apps that use them.
export type {
  Tool as ResultTool,
  Tool as FileTool,
  Tool as WrappedMcpTool,
  ToolResult as AgentToolResult,
  ToolResult as FileToolResult,
  ToolResult as WrappedMcpToolResult,
  ToolCallContext as FileToolCallContext,
} from './types.js';
export { isGlimpseError } from './errors.js';

// Tool results: a handler's output through @glimpse/media into parts.
export { toolResultFrom } from './results/tool-result-from.js';
export type { ToolResultInput } from './results/tool-result-from.js';
export { toMediaPart } from './results/to-media-part.js';
export { truncateToolText, DEFAULT_TRUNCATE } from './results/truncate.js';
export type { TruncateOptions } from './results/truncate.js';

// The route: one model on one wire API, and the capability registry behind it.
export { resolveRoute } from './route/resolve-route.js';
export { GEMINI_3_MODELS, WIRE_FACTS, takesMediaInToolResults } from './route/wire-facts.js';
export type { WireFacts } from './route/wire-facts.js';
export type { ModelRoute, PresetOptions, RouteOptions } from './route/resolve-route.js';
export {
  capabilitiesFor,
  matchCapabilityRule,
  DEFAULT_CAPABILITY_RULES,
  PROVIDER_NAMES,
  isProviderName,
} from './route/capabilities.js';
export type { CapabilitiesQuery, CapabilityRule, ModelCapabilities, ProviderName } from './route/capabilities.js';

// Serializing a conversation for a provider, and fitting its history to the route first.
export { serialize } from './providers/serialize.js';
export type { SerializedRequest } from './providers/request-bodies.js';
export type { OmitReason, SerializeInput, Serialized, SerializeWarning } from './providers/types.js';
export { createFitCache, fitConversation } from './fit-conversation.js';
export type { FitCache, FitConversationInput, FittedConversation } from './fit-conversation.js';
export { requestBytes } from './request-bytes.js';
export { fitResultBytes } from './fit-result-bytes.js';
export type { FitResultBytesInput, FittedResult } from './fit-result-bytes.js';

// The agent loop, the model it talks to, and a context window within a budget.
export { runAgent } from './loop/run-agent.js';
export type { AgentRun, AgentStep, RunAgentInput } from './loop/run-agent.js';
export { classifyMediaRefusal } from './loop/classify-media-refusal.js';
export type { MediaRefusal, MediaRefusalCode } from './loop/classify-media-refusal.js';
export type { MediaRepair } from './loop/repair-media-refusal.js';
export type { InputModality, ModelClient, ModelRequest, ModelTurn } from './loop/model-client.js';
export { ReplayModel } from './loop/replay-model.js';
export { parseReplayScript, ReplayScriptError } from './loop/replay-script.js';
export type { ReplayScript } from './loop/replay-script.js';
// Provider file references: uploads remembered by content hash, named instead of base64 (docs/budgets.md).
export { createMemoryMediaReferences } from './references/media-references.js';
export type { MediaReferences } from './references/media-references.js';
export { sessionMediaReferences, referenceOfLine } from './references/session-media-references.js';
export type { MediaReferenceLine } from './references/session-media-references.js';
export { resolveFileReferences } from './references/resolve-file-references.js';
export type {
  FileReferencesInput,
  ReferenceOutcome,
  ResolveFileReference,
} from './references/resolve-file-references.js';
export type { DeleteMedia, MediaUpload, UploadMedia } from './references/media-upload.js';
export { deleteSessionUploads } from './references/delete-session-uploads.js';
export type { DeletedUploads, UploadDeleters } from './references/delete-session-uploads.js';
export { estimateMessageTokens } from './compaction/estimate-tokens.js';
export type { EstimateOptions } from './compaction/estimate-tokens.js';
export { chooseWindow } from './compaction/choose-window.js';
export type { ChooseWindowInput, ChosenWindow } from './compaction/choose-window.js';

// The file tools (read, view_file) and their errors; their parts are in /tools, file systems in /fs.
export { createFileTools } from './tools/file-tools.js';
export type { FileTools, FileToolsOptions } from './tools/file-tools.js';
export type { ReadToolOptions } from './tools/read.js';
export type { ViewFileToolOptions } from './tools/view-file.js';
export type { CapabilitySource } from './tools/capability-gate.js';
export { DEFAULT_MAX_FILE_BYTES } from './tools/file-limits.js';
export { FileError, isFileError, FILE_ERROR_CODES } from './fs/file-error.js';
export type { FileErrorCode } from './fs/file-error.js';

// Tools of an MCP server as glimpse tools (the SDK's types only; the server itself is /mcp).
export { wrapMcpTools } from './mcp/wrap-mcp-tools.js';
export type { McpToolClient, WrapMcpToolsOptions } from './mcp/wrap-mcp-tools.js';
