import type {
  FunctionTool,
  ResponseFunctionCallOutputItem,
  ResponseInputContent,
  ResponseInputItem,
} from 'openai/resources/responses/responses';
import type { MediaPart, Part, ToolDefinition, ToolResultMessage } from '../types.js';
import { fileReferenceOf } from './file-reference.js';
import { flagError, joinText, liftedMediaParts, markError, splitToolResult } from './lift-media.js';
import { dataUrl } from './openai-chat.js';
import type { ImageDetail } from '../route/working-sizes.js';
import { prepareConversation } from './turns.js';
import type { SerializeInput, Serialized } from './types.js';

/** The Responses API request body without `model` and sampling settings. */
export interface OpenAIResponsesRequestBody {
  instructions?: string;
  tools?: FunctionTool[];
  input: ResponseInputItem[];
}

/**
 * Where the medium's bytes come from: an upload to OpenAI Files by its `file_id` (SDK `ResponseInputImage.file_id`,
 * `ResponseInputFile.file_id`: "The ID of the file to be sent to the model"), else a data URL.
 */
function imageSource(part: MediaPart): { file_id: string } | { image_url: string } {
  const reference = fileReferenceOf('openai-responses', part);
  return reference !== undefined ? { file_id: reference.id } : { image_url: dataUrl(part.mediaType, part.data) };
}

function fileSource(part: MediaPart): { file_id: string } | { filename: string; file_data: string } {
  const reference = fileReferenceOf('openai-responses', part);
  if (reference !== undefined) return { file_id: reference.id };
  return {
    filename: (part.type === 'document' && part.filename) || 'document.pdf',
    file_data: dataUrl(part.mediaType, part.data),
  };
}

/**
 * Content of a user message. A top-level input_image must name its `detail`: the one the images were fitted
 * for (`route.capabilities.imageDetail`), else `auto`.
 */
function toInputContent(part: Part, detail: ImageDetail | undefined): ResponseInputContent {
  switch (part.type) {
    case 'text':
      return { type: 'input_text', text: part.text };
    case 'image':
      return { type: 'input_image', ...imageSource(part), detail: detail ?? 'auto' };
    case 'document':
      return { type: 'input_file', ...fileSource(part) };
    default: {
      const exhaustive: never = part;
      return exhaustive;
    }
  }
}

function toOutputItem(part: Part, detail: ImageDetail | undefined): ResponseFunctionCallOutputItem {
  switch (part.type) {
    case 'text':
      return { type: 'input_text', text: part.text };
    case 'image':
      return { type: 'input_image', ...imageSource(part), ...(detail !== undefined && { detail }) };
    case 'document':
      return { type: 'input_file', ...fileSource(part) };
    default: {
      const exhaustive: never = part;
      return exhaustive;
    }
  }
}

function userMessage(parts: readonly Part[], detail: ImageDetail | undefined): ResponseInputItem {
  if (parts.every((part) => part.type === 'text'))
    return { role: 'user', content: parts.map((part) => part.text).join('\n') };
  return { role: 'user', content: parts.map((part) => toInputContent(part, detail)) };
}

/** A string when the result is text only (every gateway takes that), else the native array with the media in it. */
function output(
  result: ToolResultMessage,
  liftMedia: boolean,
  detail: ImageDetail | undefined,
): string | ResponseFunctionCallOutputItem[] {
  const split = splitToolResult(result);
  if (split.media.length === 0 || liftMedia) return markError(joinText(split.text), result.isError);
  return flagError(result).map((part) => toOutputItem(part, detail));
}

function toTool(tool: ToolDefinition): FunctionTool {
  return {
    type: 'function',
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    strict: false,
  };
}

/**
 * OpenAI Responses: media rides natively in `function_call_output.output` as input_text/input_image/input_file.
 * With `liftToolMedia` (or a model marked without media in tool results) the outputs stay text and the media of
 * the turn follow in one user message, for gateways that drop arrays inside function_call_output.
 */
export function serializeOpenAIResponses(input: SerializeInput): Serialized<OpenAIResponsesRequestBody> {
  const { turns, warnings, route } = prepareConversation('openai-responses', input);
  const liftMedia = input.liftToolMedia === true || !route.capabilities.mediaInToolResults;
  const { imageDetail } = route.capabilities;
  const items: ResponseInputItem[] = [];
  let lifted: Part[] = [];
  for (const turn of turns) {
    switch (turn.role) {
      case 'user':
        items.push(userMessage([...lifted, ...turn.message.parts], imageDetail));
        lifted = [];
        break;
      case 'assistant': {
        if (lifted.length > 0) items.push(userMessage(lifted, imageDetail));
        if (turn.message.text !== '') items.push({ role: 'assistant', content: turn.message.text });
        for (const call of turn.message.toolCalls) {
          items.push({
            type: 'function_call',
            call_id: call.id,
            name: call.name,
            arguments: JSON.stringify(call.arguments),
          });
        }
        for (const { result } of turn.results) {
          items.push({
            type: 'function_call_output',
            call_id: result.toolCallId,
            output: output(result, liftMedia, imageDetail),
          });
        }
        lifted = liftMedia ? liftedMediaParts(turn.results.map((entry) => entry.result)) : [];
        break;
      }
      default: {
        const exhaustive: never = turn;
        return exhaustive;
      }
    }
  }
  if (lifted.length > 0) items.push(userMessage(lifted, imageDetail));
  const tools = (input.tools ?? []).map(toTool);
  return {
    body: {
      ...(input.system ? { instructions: input.system } : {}),
      ...(tools.length > 0 ? { tools } : {}),
      input: items,
    },
    warnings,
  };
}
