import type { Message, UserMessage } from '../types.js';
import { estimateMessageBytes } from './estimate-bytes.js';
import { mediaPlaceholder } from './media-placeholder.js';

export interface ChooseWindowInput {
  messages: readonly Message[];
  /** Most tokens the chosen messages may cost. */
  budget: number;
  /** Tokens of one message on the target route, e.g. `(m) => estimateMessageTokens(m, { provider })`. */
  estimate: (message: Message) => number;
  /**
   * A second budget, in bytes of the serialized request (the route's `requestBytes`): the window must fit both.
   * `measure` defaults to `estimateMessageBytes`.
   */
  bytes?: { budget: number; measure?: (message: Message) => number };
}

export interface ChosenWindow {
  /** What to send: the newest turns, older media as placeholders, and a notice when turns were dropped. */
  messages: Message[];
  /** Messages of the input left out, all from the oldest end. */
  droppedMessages: number;
  /** Media parts replaced with a placeholder. */
  replacedMedia: number;
  tokens: number;
  /** Bytes of the chosen messages, by the byte budget's measure (estimateMessageBytes without one). */
  bytes: number;
  /** False when even the newest turn alone is over a budget (it is kept whole anyway: never cut mid-turn). */
  fits: boolean;
}

/**
 * Keeps the newest turns within `budget` (tokens) and, when given, `bytes.budget`. A unit is a user message, or an assistant message with every
 * tool result that answers it, so a call is never split from its result. First the media of older units
 * become placeholders, oldest first; only if that is not enough are whole older units dropped.
 * The newest unit is never touched.
 */
export function chooseWindow({ messages, budget, estimate, bytes }: ChooseWindowInput): ChosenWindow {
  const measure = bytes?.measure ?? estimateMessageBytes;
  const byteBudget = bytes?.budget ?? Infinity;
  const units = groupUnits(messages);
  const costs = units.map((unit) => unit.map(estimate));
  const sizes = units.map((unit) => unit.map(measure));
  const sum = (values: number[][], from = 0) =>
    values
      .slice(from)
      .flat()
      .reduce((total, value) => total + value, 0);
  const within = () => sum(costs) <= budget && sum(sizes) <= byteBudget;
  let replacedMedia = 0;

  placeholders: for (let u = 0; u < units.length - 1; u++) {
    for (let m = 0; m < units[u]!.length; m++) {
      if (within()) break placeholders;
      const message = units[u]![m]!;
      if (message.role === 'assistant') continue;
      const media = message.parts.filter((part) => part.type !== 'text').length;
      if (media === 0) continue;
      const parts = message.parts.map((part) => (part.type === 'text' ? part : mediaPlaceholder(part)));
      const replaced: Message = { ...message, parts };
      const cost = estimate(replaced);
      const size = measure(replaced);
      // A thumbnail can cost less than the sentence that would replace it.
      if (cost >= costs[u]![m]! && size >= sizes[u]![m]!) continue;
      units[u]![m] = replaced;
      costs[u]![m] = cost;
      sizes[u]![m] = size;
      replacedMedia += media;
    }
  }

  let first = 0;
  let notice: UserMessage | undefined;
  const windowCost = () => sum(costs, first) + (notice ? estimate(notice) : 0);
  const windowBytes = () => sum(sizes, first) + (notice ? measure(notice) : 0);
  const fits = () => windowCost() <= budget && windowBytes() <= byteBudget;
  while (first < units.length - 1 && !fits()) {
    first++;
    notice = omissionNotice(units.slice(0, first).flat().length);
  }
  const kept = units.slice(first).flat();
  return {
    messages: notice ? [notice, ...kept] : kept,
    droppedMessages: messages.length - kept.length,
    replacedMedia,
    tokens: windowCost(),
    bytes: windowBytes(),
    fits: fits(),
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
