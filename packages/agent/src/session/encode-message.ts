import type { Message, Part } from '../types.js';
import type { LoggedMessage, LoggedPart } from './session-format.js';

/** Maps the part model to the log's shapes (`mediaType` → `mimeType`); optional fields only when set. */
export function encodeMessage(message: Message): LoggedMessage {
  switch (message.role) {
    case 'user':
      return { role: 'user', content: message.parts.map(encodePart) };
    case 'assistant':
      return {
        role: 'assistant',
        text: message.text,
        toolCalls: message.toolCalls.map((call) => ({
          id: call.id,
          name: call.name,
          arguments: call.arguments,
          ...(call.signature !== undefined && { signature: call.signature }),
        })),
      };
    case 'toolResult':
      return {
        role: 'toolResult',
        toolCallId: message.toolCallId,
        toolName: message.toolName,
        isError: message.isError,
        content: message.parts.map(encodePart),
      };
    default: {
      const exhaustive: never = message;
      throw new TypeError(`unknown message role in ${JSON.stringify(exhaustive)}`);
    }
  }
}

export function encodePart(part: Part): LoggedPart {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image':
      return {
        type: 'image',
        data: part.data,
        mimeType: part.mediaType,
        ...(part.width !== undefined && { width: part.width }),
        ...(part.height !== undefined && { height: part.height }),
      };
    case 'document':
      return {
        type: 'document',
        data: part.data,
        mimeType: part.mediaType,
        ...(part.filename !== undefined && { filename: part.filename }),
        ...(part.pages !== undefined && { pages: part.pages }),
      };
    default: {
      const exhaustive: never = part;
      throw new TypeError(`unknown part type in ${JSON.stringify(exhaustive)}`);
    }
  }
}
