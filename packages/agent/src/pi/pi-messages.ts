import type { AssistantMessage as PiAssistantMessage, Message as PiMessage, Usage } from '@mariozechner/pi-ai';
import type { ProcessOptions } from '@glimpse/media';
import type { AssistantMessage, Message, Part } from '../types.js';
import { fromPiContent, toPiContent } from './pi-content.js';

/**
 * Where glimpse history says it came from, for pi. Not the target model on purpose: pi then treats the turns as
 * another model's and normalizes their tool-call ids for the API it sends to (OpenAI's ids are too long for Anthropic).
 */
export const GLIMPSE_ORIGIN = { api: 'glimpse-session', provider: 'glimpse', model: 'glimpse-session' } as const;

const NO_USAGE: Usage = {
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 0,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

export interface ToPiMessagesOptions {
  /** Stamped on every message (pi requires one). Default: now. */
  timestamp?: number;
  /** Limits for PDF pages turned into images (pi has no document type). */
  limits?: ProcessOptions;
}

/** A glimpse assistant turn as the complete message pi-ai needs: content blocks, origin, usage and stop reason. */
export function toPiAssistantMessage(message: AssistantMessage, timestamp = Date.now()): PiAssistantMessage {
  return {
    role: 'assistant',
    content: [
      ...(message.text === '' ? [] : [{ type: 'text' as const, text: message.text }]),
      ...message.toolCalls.map((call) => ({
        type: 'toolCall' as const,
        id: call.id,
        name: call.name,
        arguments: { ...call.arguments },
      })),
    ],
    ...GLIMPSE_ORIGIN,
    usage: NO_USAGE,
    stopReason: message.toolCalls.length > 0 ? 'toolUse' : 'stop',
    timestamp,
  };
}

/**
 * A glimpse conversation (a loaded session, `runAgent`'s messages) as pi messages: images named the way pi
 * reads them, PDFs as text and page images, assistant turns complete (a bare logged entry makes pi-ai throw).
 */
export async function toPiMessages(
  messages: readonly Message[],
  options: ToPiMessagesOptions = {},
): Promise<PiMessage[]> {
  const timestamp = options.timestamp ?? Date.now();
  const content = (parts: readonly Part[]) => toPiContent(parts, options.limits);
  const out: PiMessage[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'user':
        out.push({ role: 'user', content: await content(message.parts), timestamp });
        break;
      case 'assistant':
        out.push(toPiAssistantMessage(message, timestamp));
        break;
      case 'toolResult':
        out.push({
          role: 'toolResult',
          toolCallId: message.toolCallId,
          toolName: message.toolName,
          content: await content(message.parts),
          isError: message.isError,
          timestamp,
        });
        break;
      default: {
        const exhaustive: never = message;
        return exhaustive;
      }
    }
  }
  return out;
}

/**
 * A pi message as a glimpse message, to log a pi agent's turns with `SessionWriter` or serialize them. Thinking
 * is pi's own (signed, model-specific) and is not carried over; string user content becomes one text part.
 */
export function fromPiMessage(message: PiMessage): Message {
  switch (message.role) {
    case 'user':
      return {
        role: 'user',
        parts:
          typeof message.content === 'string'
            ? [{ type: 'text', text: message.content }]
            : fromPiContent(message.content),
      };
    case 'assistant':
      return {
        role: 'assistant',
        text: message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join(''),
        toolCalls: message.content.flatMap((block) =>
          block.type === 'toolCall' ? [{ id: block.id, name: block.name, arguments: { ...block.arguments } }] : [],
        ),
      };
    case 'toolResult':
      return {
        role: 'toolResult',
        toolCallId: message.toolCallId,
        toolName: message.toolName,
        parts: fromPiContent(message.content),
        isError: message.isError,
      };
    default: {
      const exhaustive: never = message;
      return exhaustive;
    }
  }
}
