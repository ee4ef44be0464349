import type { RouteName } from '@glimpse/media';

/**
 * What the agent knows of each wire API besides its media facts (preset, image types, PDF input, count limits:
 * `ROUTES` in `@glimpse/media`): facts of the wire format and its models, which the media core has no use for.
 */
export interface WireFacts {
  /**
   * Media may ride inside a tool result: on every model, on none, or on the models whose lower-cased id matches.
   * Elsewhere the serializers put it beside the results, which every model of the route reads.
   */
  mediaInToolResults: boolean | RegExp;
  /** What a model that no capability rule knows is taken to read here. */
  unknownModel: { imageInput: boolean; pdfInput: boolean };
  /**
   * The media this wire API can name by an uploaded file's reference instead of base64 (provider file
   * references, opt-in on the live client): none where the API has no such form.
   */
  fileReferences: readonly ('image' | 'document')[];
}

/**
 * Gemini 3 and later (and the `-latest` aliases, which name them today): media inside `functionResponse.parts`,
 * a replayed function call needs a thought signature, and media are priced by `media_resolution`. Gemini 1.x–2.x
 * answer media in a function response with a 400.
 */
export const GEMINI_3_MODELS = /gemini-([3-9]|\d\d)|gemini-(pro|flash|flash-lite)-latest/;

/**
 * Every route's wire facts, from each provider's documentation and SDK types (late 2026):
 * - anthropic, openai-responses: media inside `tool_result` / `function_call_output`.
 * - openai-chat: `tool` messages are text only, so media always travels in a user message.
 * - gemini: media inside `functionResponse` on Gemini 3 only.
 * - bedrock: media inside `toolResult` for Claude and Nova (not Nova Micro) only.
 * - ollama: images on every message, tool messages included; most local models are text-only.
 * File references (checked 2026-12):
 * - anthropic: image and document blocks take `source: {type: 'file', file_id}` from the Files API (beta header
 *   `files-api-2025-04-14`; docs.claude.com/en/docs/build-with-claude/files, "not supported on Amazon Bedrock or
 *   Google Vertex AI").
 * - openai-responses: `input_image` and `input_file` take `file_id` (SDK types `ResponseInputImage`,
 *   `ResponseInputFile`). openai-chat: only the `file` part takes a `file_id` (PDFs); images go inline there.
 * - gemini: `fileData: {mimeType, fileUri}` from the File API (ai.google.dev/gemini-api/docs/files: files are kept
 *   48 hours), in a turn and inside Gemini 3's `functionResponse.parts` (SDK `FunctionResponseFileData`).
 * - bedrock, ollama: inline only.
 * Hosted routes take a model no rule knows to be a vision model (new models there are multimodal, and a text-only
 * one answers an image with a loud 400); Ollama takes it to be text-only (local models then ignore images silently).
 */
export const WIRE_FACTS: Readonly<Record<RouteName, WireFacts>> = {
  anthropic: {
    mediaInToolResults: true,
    unknownModel: { imageInput: true, pdfInput: true },
    fileReferences: ['image', 'document'],
  },
  'openai-chat': {
    mediaInToolResults: false,
    unknownModel: { imageInput: true, pdfInput: true },
    fileReferences: ['document'],
  },
  'openai-responses': {
    mediaInToolResults: true,
    unknownModel: { imageInput: true, pdfInput: true },
    fileReferences: ['image', 'document'],
  },
  gemini: {
    mediaInToolResults: GEMINI_3_MODELS,
    unknownModel: { imageInput: true, pdfInput: true },
    fileReferences: ['image', 'document'],
  },
  bedrock: {
    mediaInToolResults: /claude|nova(?!-micro)/,
    unknownModel: { imageInput: true, pdfInput: true },
    fileReferences: [],
  },
  ollama: { mediaInToolResults: true, unknownModel: { imageInput: false, pdfInput: false }, fileReferences: [] },
};

/** Whether this route lets this model's tool results carry media (Gemini 3, Claude and Nova on Bedrock, …). */
export function takesMediaInToolResults(route: RouteName, model: string | undefined): boolean {
  const rule = WIRE_FACTS[route].mediaInToolResults;
  return typeof rule === 'boolean' ? rule : model !== undefined && rule.test(model.toLowerCase());
}

/** Whether the model id names Gemini 3 or later. */
export function isGemini3(model: string | undefined): boolean {
  return model !== undefined && GEMINI_3_MODELS.test(model.toLowerCase());
}
