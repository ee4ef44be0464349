import type {
  ChatCompletionContentPart,
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { Part, ToolDefinition } from '../types.js';
import { fileReferenceOf } from './file-reference.js';
import { joinText, liftedMediaParts, markError, splitToolResult } from './lift-media.js';
import type { ImageDetail } from '../route/working-sizes.js';
import { prepareConversation } from './turns.js';
import type { SerializeInput, Serialized } from './types.js';

/** The Chat Completions request body without `model` and sampling settings; the system prompt is the first message. */
export interface OpenAIChatRequestBody {
  messages: ChatCompletionMessageParam[];
  tools?: ChatCompletionFunctionTool[];
}

/** A data URL: what OpenAI's image_url and file_data fields take. */
export const dataUrl = (mediaType: string, data: string): string => `data:${mediaType};base64,${data}`;

/** `detail`: the one the images were fitted for (`route.capabilities.imageDetail`); absent, the server's default. */
function toContentPart(part: Part, detail: ImageDetail | undefined): ChatCompletionContentPart {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image':
      return {
        type: 'image_url',
        image_url: { url: dataUrl(part.mediaType, part.data), ...(detail !== undefined && { detail }) },
      };
    case 'document': {
      // Chat Completions names an upload only in a `file` part (SDK `ChatCompletionContentPart.File.file.file_id`);
      // `image_url` takes a URL or data URL, so images stay inline on this route (WIRE_FACTS.fileReferences).
      const reference = fileReferenceOf('openai-chat', part);
      if (reference !== undefined) return { type: 'file', file: { file_id: reference.id } };
      return {
        type: 'file',
        file: { filename: part.filename ?? 'document.pdf', file_data: dataUrl(part.mediaType, part.data) },
      };
    }
    default: {
      const exhaustive: never = part;
      return exhaustive;
    }
  }
}

function userMessage(parts: readonly Part[], detail: ImageDetail | undefined): ChatCompletionMessageParam {
  // Plain text stays a string: every OpenAI-compatible server takes that.
  if (parts.every((part) => part.type === 'text'))
    return { role: 'user', content: parts.map((part) => part.text).join('\n') };
  return { role: 'user', content: parts.map((part) => toContentPart(part, detail)) };
}

function toTool(tool: ToolDefinition): ChatCompletionFunctionTool {
  return {
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  };
}

/**
 * OpenAI Chat Completions: tool messages are text only, one per call, right after the assistant message.
 * The media of ALL results of that turn go into ONE user message after the last tool message (merged with the
 * next user message when there is one), as image_url data URLs and PDF file parts. Base64 never goes into text.
 */
export function serializeOpenAIChat(input: SerializeInput): Serialized<OpenAIChatRequestBody> {
  const { turns, warnings, route } = prepareConversation('openai-chat', input);
  const { imageDetail } = route.capabilities;
  // `system`, not `developer`: reasoning models read it as developer, and every compatible server knows it.
  const messages: ChatCompletionMessageParam[] = input.system ? [{ role: 'system', content: input.system }] : [];
  let lifted: Part[] = [];
  for (const turn of turns) {
    switch (turn.role) {
      case 'user':
        messages.push(userMessage([...lifted, ...turn.message.parts], imageDetail));
        lifted = [];
        break;
      case 'assistant': {
        if (lifted.length > 0) messages.push(userMessage(lifted, imageDetail));
        const { text, toolCalls } = turn.message;
        messages.push({
          role: 'assistant',
          content: text === '' && toolCalls.length > 0 ? null : text,
          ...(toolCalls.length === 0
            ? {}
            : {
                tool_calls: toolCalls.map((call) => ({
                  id: call.id,
                  type: 'function' as const,
                  function: { name: call.name, arguments: JSON.stringify(call.arguments) },
                })),
              }),
        });
        for (const { result } of turn.results) {
          messages.push({
            role: 'tool',
            tool_call_id: result.toolCallId,
            content: markError(joinText(splitToolResult(result).text), result.isError),
          });
        }
        lifted = liftedMediaParts(turn.results.map((entry) => entry.result));
        break;
      }
      default: {
        const exhaustive: never = turn;
        return exhaustive;
      }
    }
  }
  if (lifted.length > 0) messages.push(userMessage(lifted, imageDetail));
  const tools = (input.tools ?? []).map(toTool);
  return { body: { messages, ...(tools.length > 0 ? { tools } : {}) }, warnings };
}
