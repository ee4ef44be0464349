import type { Message, Tool } from 'ollama';
import type { Part, ToolDefinition } from '../types.js';
import { EMPTY_RESULT, liftedMediaParts, markError, splitToolResult } from './lift-media.js';
import { placeholderFor } from './placeholders.js';
import { prepareConversation } from './turns.js';
import type { SerializeInput, Serialized, SerializeWarning } from './types.js';

/** The /api/chat request body without `model`, `options` and `stream`; the system prompt is the first message. */
export interface OllamaRequestBody {
  messages: Message[];
  tools?: Tool[];
}

/** Ollama's message is one string plus raw base64 images (no data-URL prefix); it has no documents. */
function flatten(parts: readonly Part[]): { content: string; images: string[] } {
  const text: string[] = [];
  const images: string[] = [];
  for (const part of parts) {
    switch (part.type) {
      case 'text':
        text.push(part.text);
        break;
      case 'image':
        images.push(part.data);
        break;
      case 'document':
        // The route takes no PDFs (its media facts), so capabilities already projected them to placeholders.
        text.push(placeholderFor(part, 'no-pdf-input').text);
        break;
      default: {
        const exhaustive: never = part;
        return exhaustive;
      }
    }
  }
  return { content: text.join('\n'), images };
}

function userMessage(parts: readonly Part[]): Message {
  const { content, images } = flatten(parts);
  return { role: 'user', content, ...(images.length > 0 ? { images } : {}) };
}

type OllamaParameters = NonNullable<Tool['function']['parameters']>;
type OllamaProperty = NonNullable<OllamaParameters['properties']>[string];

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isStringArray = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

function isOllamaProperty(value: unknown): value is OllamaProperty {
  if (!isRecord(value)) return false;
  const { type, description, enum: choices } = value;
  return (
    (type === undefined || typeof type === 'string' || isStringArray(type)) &&
    (description === undefined || typeof description === 'string') &&
    (choices === undefined || Array.isArray(choices))
  );
}

/** The JSON schema in the shape the `ollama` client types; properties it cannot type are dropped, with a warning. */
function toParameters(tool: ToolDefinition, warnings: SerializeWarning[]): OllamaParameters {
  const { type, required, properties, ...rest } = tool.parameters;
  const typed: Record<string, OllamaProperty> = {};
  for (const [key, value] of Object.entries(isRecord(properties) ? properties : {})) {
    if (isOllamaProperty(value)) typed[key] = value;
    else
      warnings.push({
        type: 'tool-schema-adjusted',
        toolName: tool.name,
        message: `dropped property "${key}" of ${tool.name}: not a JSON-schema object Ollama can take`,
      });
  }
  return {
    ...rest,
    type: typeof type === 'string' ? type : 'object',
    ...(isStringArray(required) ? { required } : {}),
    properties: typed,
  };
}

/**
 * Ollama /api/chat: each tool result is a `tool` message (text plus `images` as raw base64) named by
 * `tool_name`. For models marked without media in tool results, the images of a turn go into one user message
 * after the last tool message instead. PDFs become text notes: Ollama has no documents.
 */
export function serializeOllama(input: SerializeInput): Serialized<OllamaRequestBody> {
  const { turns, warnings, route } = prepareConversation('ollama', input);
  const messages: Message[] = input.system ? [{ role: 'system', content: input.system }] : [];
  let lifted: Part[] = [];
  for (const turn of turns) {
    switch (turn.role) {
      case 'user':
        messages.push(userMessage([...lifted, ...turn.message.parts]));
        lifted = [];
        break;
      case 'assistant': {
        if (lifted.length > 0) messages.push(userMessage(lifted));
        const { text, toolCalls } = turn.message;
        messages.push({
          role: 'assistant',
          content: text,
          ...(toolCalls.length > 0
            ? { tool_calls: toolCalls.map((call) => ({ function: { name: call.name, arguments: call.arguments } })) }
            : {}),
        });
        for (const { result } of turn.results) {
          const parts = route.capabilities.mediaInToolResults ? result.parts : splitToolResult(result).text;
          const { content, images } = flatten(parts);
          messages.push({
            role: 'tool',
            content: markError(content === '' ? EMPTY_RESULT : content, result.isError),
            ...(images.length > 0 ? { images } : {}),
            tool_name: result.toolName,
          });
        }
        lifted = route.capabilities.mediaInToolResults
          ? []
          : liftedMediaParts(turn.results.map((entry) => entry.result));
        break;
      }
      default: {
        const exhaustive: never = turn;
        return exhaustive;
      }
    }
  }
  if (lifted.length > 0) messages.push(userMessage(lifted));
  const tools = (input.tools ?? []).map(
    (tool): Tool => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: toParameters(tool, warnings) },
    }),
  );
  return { body: { messages, ...(tools.length > 0 ? { tools } : {}) }, warnings };
}
