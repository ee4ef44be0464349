import type { AgentMessage } from '@mariozechner/pi-agent-core';
import type { ImageContent, Message as PiMessage } from '@mariozechner/pi-ai';
import { createFitCache, fitConversation } from '../fit-conversation.js';
import type { SerializeWarning } from '../providers/types.js';
import type { ImagePart, Message, Part } from '../types.js';
import { fromPiContent, toPiContent, type PiContent } from './pi-content.js';
import { fromPiMessage } from './pi-messages.js';
import { routeOfPiModel } from './pi-route.js';
import type { PiModelSource } from './pi-tools.js';

export interface FitPiContextOptions {
  /** The model the context goes to, fixed or read before each call (`() => agent.state.model`). */
  model?: PiModelSource;
  /** Most bytes of one request; default the route's bytes per request (Anthropic 32 MB, Gemini 20 MB, …). */
  maxRequestBytes?: number;
  /** Told of each image re-fitted or left out of the request (the context pi keeps is not changed). */
  onWarning?: (warning: SerializeWarning) => void;
}

const isPiMessage = (message: AgentMessage): message is PiMessage =>
  typeof message === 'object' &&
  message !== null &&
  'role' in message &&
  (message.role === 'user' || message.role === 'assistant' || message.role === 'toolResult');

/**
 * pi-agent-core's `transformContext` hook that keeps every request within its route's caps as a whole: before
 * each call the context goes through `fitConversation` (each image to the route, then the request's bytes per
 * request: older screenshots fitted smaller, oldest first, before any is left out with a note). pi keeps its
 * context as it was; only what this call sends changes. `new Agent({ transformContext: fitPiContext({ model: () =>
 * agent.state.model }) })`. Messages of the app's own kinds pass through untouched.
 */
export function fitPiContext(
  options: FitPiContextOptions = {},
): (messages: AgentMessage[], signal?: AbortSignal) => Promise<AgentMessage[]> {
  const cache = createFitCache();
  // The same pi image becomes the same part every call, so the fit cache holds across the session's turns.
  const parts = new WeakMap<ImageContent, ImagePart>();
  const partsOf = (content: string | readonly PiContent[]): Part[] =>
    typeof content === 'string'
      ? [{ type: 'text', text: content }]
      : content.flatMap((item): Part[] => {
          if (item.type !== 'image') return fromPiContent([item]);
          let part = parts.get(item);
          if (part === undefined) {
            const [converted] = fromPiContent([item]);
            if (converted?.type !== 'image') return converted === undefined ? [] : [converted];
            parts.set(item, (part = converted));
          }
          return [part];
        });
  return async (messages) => {
    const model = typeof options.model === 'function' ? options.model() : options.model;
    const provider = model === undefined ? undefined : routeOfPiModel(model);
    if (model === undefined || provider === undefined) return messages;
    const at: number[] = [];
    const glimpse: Message[] = [];
    messages.forEach((message, index) => {
      if (!isPiMessage(message)) return;
      at.push(index);
      const converted = fromPiMessage(message);
      glimpse.push(
        converted.role === 'assistant' || message.role === 'assistant'
          ? converted
          : { ...converted, parts: partsOf(message.content) },
      );
    });
    const fitted = await fitConversation({
      messages: glimpse,
      provider,
      model: model.id,
      capabilities: { imageInput: model.input.includes('image') },
      cache,
      ...(options.maxRequestBytes !== undefined && { maxRequestBytes: options.maxRequestBytes }),
    });
    for (const warning of fitted.warnings) options.onWarning?.(warning);
    const out = [...messages];
    for (const [i, message] of fitted.messages.entries()) {
      const before = glimpse[i]!;
      if (message.role === 'assistant' || before.role === 'assistant') continue;
      const unchanged =
        message.parts.length === before.parts.length && message.parts.every((part, k) => part === before.parts[k]);
      if (unchanged) continue;
      const original = messages[at[i]!] as PiMessage;
      out[at[i]!] = { ...original, content: await toPiContent(message.parts) } as AgentMessage;
    }
    return out;
  };
}
