import type { RouteOptions } from '../route/resolve-route.js';
import type { Conversation } from '../types.js';

/**
 * What every serializer takes: the whole conversation, because ordering rules span messages, and the model it
 * goes to (its id, or the route resolved already).
 */
export interface SerializeInput extends Conversation, RouteOptions {
  /**
   * OpenAI Responses only: put tool-result media in a user message after the outputs instead of inside
   * `function_call_output.output`, for OpenAI-compatible gateways that drop arrays there.
   */
  liftToolMedia?: boolean;
}

/** Why a media part did not reach the model as media. */
export type OmitReason =
  | 'no-image-input' // the model does not read images
  | 'no-pdf-input' // the model (or route: Ollama) does not read PDFs
  | 'format-not-accepted' // the route refuses this image format (GIF on Gemini, WebP/GIF on Ollama)
  | 'invalid-data' // the part's data is not base64 (only Bedrock decodes it, to send raw bytes)
  | 'too-large-for-many-images' // Anthropic: a request with more than 20 images takes no side over 2000 px
  | 'too-many-images' // a per-message image cap (Bedrock: 20)
  | 'too-many-documents' // a per-message document cap (Bedrock: 5)
  | 'cannot-fit' // fitting it again for this route failed (fitConversation)
  | 'request-too-large' // the request would pass the route's byte cap even with every image at its legible floor
  | 'result-too-large' // an MCP tool result would pass the host's byte cap (fitResultBytes)
  | 'refused-by-provider'; // the provider refused this medium once (runAgent's repair): it is not sent again

/** Something the serializer changed so the request stays valid. Structured, so apps can log or surface it. */
export type SerializeWarning =
  | { type: 'media-omitted'; reason: OmitReason; mediaType: string; messageIndex: number; message: string }
  | {
      type: 'media-refitted';
      mediaType: string;
      messageIndex: number;
      from: { width: number; height: number };
      to: { width: number; height: number };
      /** Bytes of the image before and after, when the request's byte budget fitted it smaller (fitConversation). */
      bytes?: { from: number; to: number };
      message: string;
    }
  | { type: 'request-over-budget'; bytes: number; cap: number; message: string }
  | {
      /** A provider file reference could not be made (its upload failed): the medium went inline this run. */
      type: 'media-reference-failed';
      provider: 'anthropic' | 'openai' | 'gemini';
      mediaType: string;
      messageIndex: number;
      message: string;
    }
  | { type: 'document-renamed'; from: string; to: string; messageIndex: number; message: string }
  | { type: 'turns-merged'; role: 'user' | 'assistant'; messageIndex: number; message: string }
  | { type: 'missing-tool-result'; toolCallId: string; toolName: string; message: string }
  | { type: 'orphan-tool-result'; toolCallId: string; messageIndex: number; message: string }
  | { type: 'tool-schema-adjusted'; toolName: string; message: string }
  | { type: 'tools-missing'; message: string };

/**
 * Every serializer returns the provider's request body, typed with its SDK's own types, plus the warnings.
 * The body is all of the request but the model and sampling settings (`max_tokens`, temperature, …): add those
 * and it is a request the API accepts. Tools appear only when there are some (OpenAI refuses an empty list).
 */
export interface Serialized<Body> {
  body: Body;
  warnings: SerializeWarning[];
}
