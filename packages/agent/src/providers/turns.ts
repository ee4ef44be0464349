import type { ProviderName } from '../route/capabilities.js';
import { routeFor, type ModelRoute } from '../route/resolve-route.js';
import type { AssistantMessage, Message, ToolCall, ToolResultMessage, UserMessage } from '../types.js';
import { projectForModel } from './placeholders.js';
import type { SerializeInput, SerializeWarning } from './types.js';

/** A tool call with its result; `messageIndex` is -1 when the result had to be synthesized. */
export interface CallWithResult {
  call: ToolCall;
  result: ToolResultMessage;
  messageIndex: number;
}

/** The conversation regrouped as providers think of it: each assistant turn owns its calls' results, in call order. */
export type Turn =
  | { role: 'user'; message: UserMessage; messageIndex: number }
  | { role: 'assistant'; message: AssistantMessage; messageIndex: number; results: CallWithResult[] };

const INTERRUPTED = 'No result: the tool call was interrupted before it returned.';

/**
 * Pairs every tool call with its result. Providers reject a call without a result and a result without a call,
 * so a missing result becomes an error result saying so, and a result whose call is unknown is dropped; both warn.
 */
export function groupTurns(messages: readonly Message[], warnings: SerializeWarning[]): Turn[] {
  const turns: Turn[] = [];
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]!;
    switch (message.role) {
      case 'user':
        turns.push({ role: 'user', message, messageIndex: index });
        break;
      case 'assistant': {
        const assistantIndex = index;
        const pending = new Map<string, { result: ToolResultMessage; messageIndex: number }>();
        for (let next = messages[index + 1]; next?.role === 'toolResult'; next = messages[index + 1]) {
          index++;
          const result = next;
          if (message.toolCalls.some((call) => call.id === result.toolCallId) && !pending.has(result.toolCallId)) {
            pending.set(result.toolCallId, { result, messageIndex: index });
          } else {
            warnings.push(orphan(result, index));
          }
        }
        const results = message.toolCalls.map((call): CallWithResult => {
          const found = pending.get(call.id);
          if (found) return { call, ...found };
          warnings.push({
            type: 'missing-tool-result',
            toolCallId: call.id,
            toolName: call.name,
            message: `tool call ${call.id} (${call.name}) had no result; sent an error result instead`,
          });
          return {
            call,
            messageIndex: -1,
            result: {
              role: 'toolResult',
              toolCallId: call.id,
              toolName: call.name,
              parts: [{ type: 'text', text: INTERRUPTED }],
              isError: true,
            },
          };
        });
        turns.push({ role: 'assistant', message, messageIndex: assistantIndex, results });
        break;
      }
      case 'toolResult':
        warnings.push(orphan(message, index));
        break;
      default: {
        const exhaustive: never = message;
        throw new Error(`unknown message ${JSON.stringify(exhaustive)}`);
      }
    }
  }
  return turns;
}

function orphan(result: ToolResultMessage, messageIndex: number): SerializeWarning {
  return {
    type: 'orphan-tool-result',
    toolCallId: result.toolCallId,
    messageIndex,
    message: `dropped the result for ${result.toolCallId}: no assistant turn before it made that call`,
  };
}

/**
 * The steps every serializer starts with: take the route (the one passed in, or the model's, resolved here once),
 * project media the model cannot read, group turns.
 */
export function prepareConversation(
  provider: ProviderName,
  input: SerializeInput,
  /** A route's own whole-request rule, applied after the capability projection. */
  routeRule?: (messages: Message[], warnings: SerializeWarning[], route: ModelRoute) => Message[],
): { route: ModelRoute; turns: Turn[]; warnings: SerializeWarning[] } {
  const warnings: SerializeWarning[] = [];
  const route = routeFor(provider, input);
  const projected = projectForModel(input.messages, route, warnings);
  const turns = groupTurns(routeRule ? routeRule(projected, warnings, route) : projected, warnings);
  return { route, turns, warnings };
}
