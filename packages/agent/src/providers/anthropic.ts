import type {
  ContentBlockParam,
  DocumentBlockParam,
  ImageBlockParam,
  MessageParam,
  TextBlockParam,
  Tool,
  ToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/messages';
import type { ModelRoute } from '../route/resolve-route.js';
import type { ImagePart, Message, Part, ToolDefinition } from '../types.js';
import { fileReferenceOf } from './file-reference.js';
import { EMPTY_RESULT, liftedMediaParts, splitToolResult } from './lift-media.js';
import { omitMedia, placeholderFor } from './placeholders.js';
import { prepareConversation, type CallWithResult } from './turns.js';
import type { SerializeInput, Serialized, SerializeWarning } from './types.js';

/** The Messages API request body without `model`, `max_tokens` and sampling settings. */
export interface AnthropicRequestBody {
  system?: string;
  tools?: Tool[];
  messages: MessageParam[];
}

type Block = TextBlockParam | ImageBlockParam | DocumentBlockParam;

function toBlock(part: Part): Block {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image': {
      // The route takes no HEIC/HEIF (route.media.imageTypes): prepareConversation made such parts placeholders already.
      if (part.mediaType === 'image/heic' || part.mediaType === 'image/heif') {
        return { type: 'text', text: placeholderFor(part, 'format-not-accepted').text };
      }
      // An upload to the Files API is named by its file_id (docs.claude.com, "Files API": image blocks take
      // `source: {type: 'file', file_id}`; the client sends the `files-api-2025-04-14` beta header with it).
      const reference = fileReferenceOf('anthropic', part);
      if (reference !== undefined) return { type: 'image', source: { type: 'file', file_id: reference.id } };
      return { type: 'image', source: { type: 'base64', media_type: part.mediaType, data: part.data } };
    }
    case 'document': {
      const reference = fileReferenceOf('anthropic', part);
      return {
        type: 'document',
        source:
          reference !== undefined
            ? { type: 'file', file_id: reference.id }
            : { type: 'base64', media_type: 'application/pdf', data: part.data },
        ...(part.filename === undefined ? {} : { title: part.filename }),
      };
    }
    default: {
      const exhaustive: never = part;
      return exhaustive;
    }
  }
}

// Anthropic rejects empty text blocks.
const toBlocks = (parts: readonly Part[]): Block[] =>
  parts.filter((part) => part.type !== 'text' || part.text !== '').map(toBlock);

/**
 * Anthropic's image limits over the whole request (earlier turns count). Past `imagesPerRequest` the oldest images
 * become placeholders: the newest are the ones the turn is about. Then, once more than 20 remain, any side over
 * 2000 px would fail the whole request: `fitConversation` fits such images again from their bytes, and one that
 * reaches the serializer unfitted becomes a placeholder. Images without a recorded size are let through.
 */
function applyImageLimits(messages: Message[], warnings: SerializeWarning[], route: ModelRoute): Message[] {
  const { imagesPerRequest = Infinity, manyImages } = route.media.limits;
  const total = messages.reduce(
    (sum, message) =>
      sum + (message.role === 'assistant' ? 0 : message.parts.filter((part) => part.type === 'image').length),
    0,
  );
  let excess = Math.max(0, total - imagesPerRequest);
  const remaining = total - excess;
  const tooLarge = (part: ImagePart) =>
    manyImages !== undefined &&
    remaining > manyImages.above &&
    Math.max(part.width ?? 0, part.height ?? 0) > manyImages.maxEdge;
  return messages.map((message, index) => {
    if (message.role === 'assistant') return message;
    const parts = message.parts.map((part): Part => {
      if (part.type !== 'image') return part;
      if (excess > 0) {
        excess--;
        return omitMedia(part, 'too-many-images', index, warnings);
      }
      return tooLarge(part) ? omitMedia(part, 'too-large-for-many-images', index, warnings) : part;
    });
    return { ...message, parts };
  });
}

/**
 * Media rides inside `tool_result.content`, except in error results: the API requires an `is_error` result to be
 * text only, so their media follows the results in the same user turn.
 */
function toolResultBlock({ result }: CallWithResult): ToolResultBlockParam {
  const parts = result.isError ? splitToolResult(result).text : result.parts;
  const content = toBlocks(parts);
  return {
    type: 'tool_result',
    tool_use_id: result.toolCallId,
    content: content.length > 0 ? content : [{ type: 'text', text: EMPTY_RESULT }],
    ...(result.isError ? { is_error: true } : {}),
  };
}

function toTool(tool: ToolDefinition): Tool {
  return { name: tool.name, description: tool.description, input_schema: { ...tool.parameters, type: 'object' } };
}

/**
 * Anthropic Messages: every result of one assistant turn goes into ONE user turn, `tool_result` blocks first in
 * `tool_use` order; media lifted from error results and the next user message's blocks come after them.
 */
export function serializeAnthropic(input: SerializeInput): Serialized<AnthropicRequestBody> {
  const { turns, warnings } = prepareConversation('anthropic', input, applyImageLimits);
  const messages: MessageParam[] = [];
  let pendingResults: ContentBlockParam[] = [];
  for (const turn of turns) {
    switch (turn.role) {
      case 'user':
        messages.push({ role: 'user', content: [...pendingResults, ...toBlocks(turn.message.parts)] });
        pendingResults = [];
        break;
      case 'assistant': {
        if (pendingResults.length > 0) messages.push({ role: 'user', content: pendingResults });
        const content: ContentBlockParam[] =
          turn.message.text === '' ? [] : [{ type: 'text', text: turn.message.text }];
        for (const call of turn.message.toolCalls)
          content.push({ type: 'tool_use', id: call.id, name: call.name, input: call.arguments });
        // An empty assistant turn is invalid; dropping it leaves two user turns, which the API joins.
        if (content.length > 0) messages.push({ role: 'assistant', content });
        const errorMedia = liftedMediaParts(
          turn.results.filter((entry) => entry.result.isError).map((entry) => entry.result),
        );
        pendingResults = [...turn.results.map(toolResultBlock), ...toBlocks(errorMedia)];
        break;
      }
      default: {
        const exhaustive: never = turn;
        return exhaustive;
      }
    }
  }
  if (pendingResults.length > 0) messages.push({ role: 'user', content: pendingResults });
  const tools = (input.tools ?? []).map(toTool);
  if (tools.length === 0 && input.messages.some((m) => m.role === 'assistant' && m.toolCalls.length > 0)) {
    warnings.push({
      type: 'tools-missing',
      message:
        'the history has tool calls but no tools were given: Anthropic refuses tool_use blocks unless the request defines tools (pass tools)',
    });
  }
  const body: AnthropicRequestBody = {
    ...(input.system ? { system: input.system } : {}),
    ...(tools.length > 0 ? { tools } : {}),
    messages,
  };
  return { body, warnings };
}
