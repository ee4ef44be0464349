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
}

/** A PDF, base64 without prefix. Only PDFs are documents. */
export interface DocumentPart {
  type: 'document';
  mediaType: 'application/pdf';
  data: string;
  filename?: string;
  pages?: number;
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
