import type { Message, UserMessage } from '../types.js';
import { mediaPlaceholder } from './media-placeholder.js';

export interface ChooseWindowInput {
  messages: readonly Message[];
  /** Most tokens the chosen messages may cost. */
  budget: number;
  /** Tokens of one message on the target route, e.g. `(m) => estimateMessageTokens(m, { provider })`. */
  estimate: (message: Message) => number;
}

export interface ChosenWindow {
  /** What to send: the newest turns, older media as placeholders, and a notice when turns were dropped. */
  messages: Message[];
  /** Messages of the input left out, all from the oldest end. */
  droppedMessages: number;
  /** Media parts replaced with a placeholder. */
  replacedMedia: number;
  tokens: number;
  /** False when even the newest turn alone is over budget (it is kept whole anyway: never cut mid-turn). */
  fits: boolean;
}

/**
 * Keeps the newest turns within `budget`. A unit is a user message, or an assistant message with every
 * tool result that answers it, so a call is never split from its result. First the media of older units
 * become placeholders, oldest first; only if that is not enough are whole older units dropped.
 * The newest unit is never touched.
 */
export function chooseWindow({ messages, budget, estimate }: ChooseWindowInput): ChosenWindow {
  const units = groupUnits(messages);
  const costs = units.map((unit) => unit.map(estimate));
  const total = () => costs.flat().reduce((sum, cost) => sum + cost, 0);
  let replacedMedia = 0;

  placeholders: for (let u = 0; u < units.length - 1; u++) {
    for (let m = 0; m < units[u]!.length; m++) {
      if (total() <= budget) break placeholders;
      const message = units[u]![m]!;
      if (message.role === 'assistant') continue;
      const media = message.parts.filter((part) => part.type !== 'text').length;
      if (media === 0) continue;
      const parts = message.parts.map((part) => (part.type === 'text' ? part : mediaPlaceholder(part)));
      const replaced: Message = { ...message, parts };
      const cost = estimate(replaced);
      // A thumbnail can cost less than the sentence that would replace it.
      if (cost >= costs[u]![m]!) continue;
      units[u]![m] = replaced;
      costs[u]![m] = cost;
      replacedMedia += media;
    }
  }

  let first = 0;
  let notice: UserMessage | undefined;
  const windowCost = () =>
    costs
      .slice(first)
      .flat()
      .reduce((sum, cost) => sum + cost, 0) + (notice ? estimate(notice) : 0);
  while (first < units.length - 1 && windowCost() > budget) {
    first++;
    notice = omissionNotice(units.slice(0, first).flat().length);
  }
  const kept = units.slice(first).flat();
  return {
    messages: notice ? [notice, ...kept] : kept,
    droppedMessages: messages.length - kept.length,
    replacedMedia,
    tokens: windowCost(),
    fits: windowCost() <= budget,
  };
}

/** Units start at each user and assistant message; tool results belong to the unit before them. */
function groupUnits(messages: readonly Message[]): Message[][] {
  const units: Message[][] = [];
  for (const message of messages) {
    if (message.role === 'toolResult' && units.length > 0) units[units.length - 1]!.push(message);
    else units.push([message]);
  }
  return units;
}

/** Opens the window with a user turn (some providers require one first) that says history was cut. */
function omissionNotice(count: number): UserMessage {
  return {
    role: 'user',
    parts: [{ type: 'text', text: `[${count} earlier message${count === 1 ? '' : 's'} omitted to save context]` }],
  };
}
