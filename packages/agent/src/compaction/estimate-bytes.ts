import type { Message, Part } from '../types.js';

/** JSON around each part and message on the wire (keys, type tags, quotes): a generous per-item allowance. */
const PART_OVERHEAD = 96;
const MESSAGE_OVERHEAD = 64;

/** Bytes a part adds to a serialized request: its base64 as it is, its text as JSON escapes it. */
export function estimatePartBytes(part: Part): number {
  return PART_OVERHEAD + (part.type === 'text' ? JSON.stringify(part.text).length : part.data.length);
}

/**
 * Bytes a message adds to a serialized request, for the byte meter beside the token one (`chooseWindow`'s
 * `bytes`). An estimate for choosing a window; `requestBytes` measures a request exactly.
 */
export function estimateMessageBytes(message: Message): number {
  if (message.role === 'assistant')
    return MESSAGE_OVERHEAD + JSON.stringify(message.text).length + JSON.stringify(message.toolCalls).length;
  return message.parts.reduce((sum, part) => sum + estimatePartBytes(part), MESSAGE_OVERHEAD);
}
