/**
 * The one contract of glimpse's agent shell: what a tool result and a conversation are made of.
 * Serializers read only these types; media in them has always been through `@glimpse/media`.
 */

/** Plain text. */
export interface TextPart {
  type: 'text';
  text: string;
}

/**
 * A provider's handle on media uploaded to it once (Anthropic Files API, OpenAI Files, Gemini File API), sent in
 * place of the base64 on the route it was uploaded to. The same shape as a session log's `media` line keeps it.
 */
export interface FileReference {
  provider: 'anthropic' | 'openai' | 'gemini';
  /** Anthropic and OpenAI `file_id`; Gemini's resource name (`files/abc`). */
  id: string;
  /** Gemini's `fileUri`, what a request names. */
  uri?: string;
  mimeType: string;
  /** ISO time after which the provider has deleted it (Gemini: 48 h after upload); re-uploaded after it. */
  expiresAt?: string;
}

/**
 * An image, base64 without a data-URL prefix, already fitted to the route's limits. HEIC/HEIF only where the
 * route takes them as they are (Gemini); other routes get them converted.
 */
export interface ImagePart {
  type: 'image';
  mediaType: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp' | 'image/heic' | 'image/heif';
  data: string;
  /** Pixel size as sent; serializers and token estimates use it, providers never see it. */
  width?: number;
  height?: number;
  /**
   * Set on the outgoing copy only (`fitConversation` with references): these bytes were uploaded, and the
   * serializer of `reference.provider`'s routes sends the reference instead of `data`. Others ignore it.
   */
  reference?: FileReference;
}

/** A PDF, base64 without prefix. Only PDFs are documents. */
export interface DocumentPart {
  type: 'document';
  mediaType: 'application/pdf';
  data: string;
  filename?: string;
  pages?: number;
  /** As on `ImagePart`: the outgoing copy's upload, sent instead of `data` on its provider's routes. */
  reference?: FileReference;
}

export type MediaPart = ImagePart | DocumentPart;
export type Part = TextPart | MediaPart;

/** A turn written by the person. */
export interface UserMessage {
  role: 'user';
  parts: Part[];
}

/** One call the model asked for; `id` pairs it with its result. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  /** An opaque token the model attached to the call (Gemini's thought signature), sent back exactly as received. */
  signature?: string;
}

/** A model turn: text, then any tool calls (in the order the model made them). */
export interface AssistantMessage {
  role: 'assistant';
  text: string;
  toolCalls: ToolCall[];
}

/** The result of one tool call. Its parts may hold media; each serializer places them where its provider allows. */
export interface ToolResultMessage {
  role: 'toolResult';
  toolCallId: string;
  toolName: string;
  parts: Part[];
  isError: boolean;
}

export type Message = UserMessage | AssistantMessage | ToolResultMessage;

/** A tool as offered to a model: serializers turn this into each provider's tool definition. */
export interface ToolDefinition {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
}

/**
 * What a tool hands back, before it becomes a `ToolResultMessage`: parts whose media have been through
 * `@glimpse/media` already (fitted, upright, in a type the route takes).
 */
export interface ToolResult {
  parts: Part[];
  /** The call failed (missing file, refused path, unreadable content); the parts say why and what to do. */
  isError: boolean;
}

export interface ToolCallContext {
  /** Cancels the call; a file tool then answers with an `E_ABORTED` error result. */
  signal?: AbortSignal;
}

/**
 * The one tool shape of glimpse: the file tools (`read`, `view_file`), wrapped MCP tools and app tools alike. The
 * definition (name, description, JSON schema) goes to the model through each serializer; `execute` runs a call.
 * Expected failures are error results the model can act on; `execute` throws only on bugs (the agent loop turns a
 * throw into an error result too, and the turn goes on).
 */
export interface Tool {
  definition: ToolDefinition;
  execute(args: Record<string, unknown>, context?: ToolCallContext): Promise<ToolResult>;
}

/** Raw media a tool hands back. Tools stay dumb: bytes (or base64) and an optional type hint, nothing fitted. */
export interface Attachment {
  bytes?: Uint8Array;
  /** Base64, with or without a `data:` URL prefix. */
  data?: string;
  /** A hint only: the bytes decide. `text/*` and JSON hints turn non-media bytes into text. */
  mediaType?: string;
  filename?: string;
}

/** MCP `CallToolResult` content items, as MCP servers send them. */
export type McpContent =
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mimeType: string }
  | { type: 'audio'; data: string; mimeType: string }
  | { type: 'resource'; resource: { uri: string; mimeType?: string; blob?: string; text?: string } }
  | { type: 'resource_link'; uri: string; name?: string; mimeType?: string };

/**
 * What a tool handler may return:
 * - a string;
 * - `{ text?, attachments }` with raw bytes or base64;
 * - a list of glimpse parts and/or MCP content items (their media is processed again: nothing bypasses it);
 * - an MCP `CallToolResult` (`{ content, isError? }`).
 * `toolResultFrom` turns any of them into a tool result message.
 */
export type ToolOutput =
  | string
  | { text?: string; attachments: readonly Attachment[] }
  | ReadonlyArray<Part | McpContent>
  | { content: readonly McpContent[]; isError?: boolean };

/**
 * A tool written the short way for the agent loop: its handler returns raw output (`ToolOutput`), and the loop
 * assembles it with `toolResultFrom` for the run's route, so every attachment goes through the media pipeline.
 */
export interface HandlerTool {
  definition: ToolDefinition;
  handler(args: Record<string, unknown>, context: ToolCallContext): Promise<ToolOutput> | ToolOutput;
}

/** What the agent loop runs: a tool, or a handler tool. */
export type AgentTool = Tool | HandlerTool;

/**
 * Everything a request is built from: the system prompt (the app's standing instructions to the model, sent
 * where each API wants them: Anthropic `system`, OpenAI Chat's first message, Responses `instructions`,
 * Gemini `systemInstruction`, Bedrock `system`, Ollama's first message), the turns, and the tools on offer.
 */
export interface Conversation {
  /** Omitted, or empty, means no system prompt. */
  system?: string;
  messages: readonly Message[];
  tools?: readonly ToolDefinition[];
}
