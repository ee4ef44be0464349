import type { Message, ToolCall, ToolDefinition } from '../types.js';
import type { SerializedRequest } from '../providers/request-bodies.js';
import type { DeleteMedia, UploadMedia } from '../references/media-upload.js';

/** What a model reads besides text. Media it cannot read reach it as placeholders, never as bytes. */
export type InputModality = 'text' | 'image' | 'pdf';

/** One request of the agent loop. */
export interface ModelRequest {
  /** The system prompt, if the run has one (also inside `serialized.body`, where the provider wants it). */
  system?: string;
  /** The whole conversation in the part model. */
  messages: readonly Message[];
  tools: readonly ToolDefinition[];
  /** The same conversation serialized for the loop's provider and this model: `serialized.body` plus the model
   * (and sampling settings) is what a real client sends. */
  serialized: SerializedRequest;
}

/** One model turn: text, then the tool calls it asks for (none ends the run). */
export interface ModelTurn {
  text: string;
  toolCalls: ToolCall[];
}

/**
 * The one interface the agent loop needs from a model. A real client posts `request.serialized.body` to its
 * provider and maps the reply back; the replay model reads its turns from a script.
 */
export interface ModelClient {
  inputModalities: readonly InputModality[];
  next(request: ModelRequest, signal?: AbortSignal): Promise<ModelTurn>;
  /**
   * Uploads a medium to the provider's file store (a live client made with `fileReferences: true`). When there is
   * one, `runAgent` sends each image or PDF the route can reference by its upload, once fitted, instead of base64.
   */
  uploadMedia?: UploadMedia;
  /** Deletes an upload from the provider's file store (`deleteSessionUploads`); where `uploadMedia` is. */
  deleteMedia?: DeleteMedia;
}
