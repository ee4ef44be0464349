import type { Content, FunctionResponsePart, Part as GeminiPart, PartMediaResolutionLevel, Tool } from '@google/genai';
import {
  GEMINI_LEVEL_ON_WIRE,
  geminiImageLevel,
  type GeminiMaxMediaResolution,
} from '../compaction/gemini-image-tokens.js';
import { isGemini3 } from '../route/wire-facts.js';
import type { MediaPart, Part, ToolDefinition, ToolResultMessage } from '../types.js';
import { fileReferenceOf } from './file-reference.js';
import { attachedLine, EMPTY_RESULT, joinText, liftedMediaParts, splitToolResult } from './lift-media.js';
import { prepareConversation, type CallWithResult } from './turns.js';
import type { SerializeInput, Serialized } from './types.js';

/**
 * The generateContent REST body without the model (it is in the URL) and `generationConfig`. The `@google/genai`
 * SDK takes the same pieces in another arrangement: see `toGeminiParameters`.
 */
export interface GeminiRequestBody {
  systemInstruction?: Content;
  tools?: Tool[];
  contents: Content[];
}

/**
 * Gemini 3 rejects a replayed function call without a thought signature. Conversations built elsewhere have
 * none, so calls carry the placeholder value Google documents for exactly this case.
 */
export const SKIP_THOUGHT_SIGNATURE = 'skip_thought_signature_validator';

/**
 * A part of a turn. On Gemini 3 an image carries its `media_resolution` level (`mediaResolution.level`): the
 * cheapest that holds it whole, at most high (ultra_high where the route asks for it: `maxMediaResolution`;
 * compaction/gemini-image-tokens.ts), which is the size it was fitted to (route/working-sizes.ts) and the count
 * the token estimates use. A PDF is set to medium, 560 tokens a page: Google's default and the level its
 * media-resolution guide recommends for documents (text quality saturates there), said on the wire so the
 * estimate holds whatever a request's global setting.
 */
function toPart(part: Part, levels: GeminiMaxMediaResolution | undefined): GeminiPart {
  switch (part.type) {
    case 'text':
      return { text: part.text };
    case 'image':
    case 'document': {
      // An upload to the File API is named by its URI (ai.google.dev/gemini-api/docs/files: `fileData` with
      // `mimeType` and `fileUri`); it is kept 48 hours, and the reference's expiry says when to upload it again.
      const reference = fileReferenceOf('gemini', part);
      const media: GeminiPart =
        reference?.uri !== undefined
          ? { fileData: { mimeType: part.mediaType, fileUri: reference.uri } }
          : { inlineData: { mimeType: part.mediaType, data: part.data } };
      if (levels === undefined) return media;
      const chosen = part.type === 'document' ? 'medium' : geminiImageLevel(part.width, part.height, levels);
      return { ...media, mediaResolution: { level: GEMINI_LEVEL_ON_WIRE[chosen] as PartMediaResolutionLevel } };
    }
    default: {
      const exhaustive: never = part;
      return exhaustive;
    }
  }
}

/**
 * What Gemini 3 takes inside `functionResponse.parts`: fewer types than a user turn, which also takes HEIC and
 * HEIF. A result holding other media has all its media sent after the results, as for older models.
 */
const RESPONSE_MEDIA_TYPES: ReadonlySet<MediaPart['mediaType']> = new Set([
  'image/png',
  'image/jpeg',
  'image/webp',
  'application/pdf',
]);

function mediaFitsResponse(result: ToolResultMessage): boolean {
  return result.parts.every((part) => part.type === 'text' || RESPONSE_MEDIA_TYPES.has(part.mediaType));
}

function toResponsePart(part: MediaPart): FunctionResponsePart {
  // Gemini 3 takes an uploaded file inside a function response too (SDK `FunctionResponsePart.fileData`).
  const reference = fileReferenceOf('gemini', part);
  if (reference?.uri !== undefined) return { fileData: { mimeType: part.mediaType, fileUri: reference.uri } };
  return {
    inlineData: {
      mimeType: part.mediaType,
      data: part.data,
      ...(part.type === 'document' && part.filename !== undefined ? { displayName: part.filename } : {}),
    },
  };
}

/** `response` is `{output}` or `{error}`, the keys Gemini's docs use; text only, media goes elsewhere. */
function functionResponse({ call, result }: CallWithResult, mediaInside: boolean): GeminiPart {
  const { text, media } = splitToolResult(result);
  const ownText = result.parts.filter((part) => part.type === 'text');
  const body = mediaInside
    ? ownText.length > 0
      ? joinText(ownText)
      : media.length > 0
        ? attachedLine(media)
        : EMPTY_RESULT
    : joinText(text);
  return {
    functionResponse: {
      id: call.id,
      name: call.name,
      response: result.isError ? { error: body } : { output: body },
      ...(mediaInside && media.length > 0 ? { parts: media.map(toResponsePart) } : {}),
    },
  };
}

function toTool(tools: readonly ToolDefinition[]): Tool[] {
  if (tools.length === 0) return [];
  return [
    {
      functionDeclarations: tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        parametersJsonSchema: tool.parameters,
      })),
    },
  ];
}

/**
 * Gemini generateContent: the function-response turn follows the call turn, ONE functionResponse per call,
 * always, even for a result that is only a file. Gemini 3 carries media inside `functionResponse.parts`;
 * older models answer that with a 400, so their media follows the functionResponse parts in the same turn,
 * as does a result's HEIC/HEIF on Gemini 3 (which takes those in a turn, not in a function response).
 * Media inside `functionResponse.parts` carries no `media_resolution` (the API's FunctionResponsePart has no
 * such field): Gemini 3 reads it at the default, high, which is the size it was fitted to.
 */
export function serializeGemini(input: SerializeInput): Serialized<GeminiRequestBody> {
  const { turns, warnings, route } = prepareConversation('gemini', input);
  // The wire facts mark Gemini 3 and later as taking media inside tool results; an app may override that.
  const mediaInside = route.capabilities.mediaInToolResults;
  // The signature is a fact of the model, not of where media goes: Gemini 3 rejects a call without one. A request
  // that names no model may well go to the current generation, so it gets one too (the field is valid on all).
  const needsSignature = route.model === undefined || isGemini3(route.model);
  // Per-part levels are Gemini 3's (the API documents the field for no other); a request naming no model sends none.
  const levels = isGemini3(route.model) ? (route.capabilities.maxMediaResolution ?? 'high') : undefined;
  const part = (each: Part) => toPart(each, levels);
  const contents: Content[] = [];
  let pending: GeminiPart[] = [];
  for (const turn of turns) {
    switch (turn.role) {
      case 'user':
        contents.push({ role: 'user', parts: [...pending, ...turn.message.parts.map(part)] });
        pending = [];
        break;
      case 'assistant': {
        if (pending.length > 0) contents.push({ role: 'user', parts: pending });
        const parts: GeminiPart[] = turn.message.text === '' ? [] : [{ text: turn.message.text }];
        turn.message.toolCalls.forEach((call, i) => {
          // The model's own signature goes back as it came; history made elsewhere gets the documented stand-in.
          const stated = call.signature ?? (needsSignature && i === 0 ? SKIP_THOUGHT_SIGNATURE : undefined);
          const signature = stated === undefined ? {} : { thoughtSignature: stated };
          parts.push({ functionCall: { id: call.id, name: call.name, args: call.arguments }, ...signature });
        });
        if (parts.length > 0) contents.push({ role: 'model', parts });
        const inside = (entry: CallWithResult) => mediaInside && mediaFitsResponse(entry.result);
        const lifted = liftedMediaParts(turn.results.filter((entry) => !inside(entry)).map((entry) => entry.result));
        pending = [...turn.results.map((entry) => functionResponse(entry, inside(entry))), ...lifted.map(part)];
        break;
      }
      default: {
        const exhaustive: never = turn;
        return exhaustive;
      }
    }
  }
  if (pending.length > 0) contents.push({ role: 'user', parts: pending });
  const tools = toTool(input.tools ?? []);
  const body: GeminiRequestBody = {
    ...(input.system ? { systemInstruction: { parts: [{ text: input.system }] } } : {}),
    ...(tools.length > 0 ? { tools } : {}),
    contents,
  };
  return { body, warnings };
}
