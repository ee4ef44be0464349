import type { ModelRoute } from '../route/resolve-route.js';
import type { MediaPart, Message, Part, TextPart } from '../types.js';
import type { OmitReason, SerializeWarning } from './types.js';

const WHY: Readonly<Record<OmitReason, string>> = {
  'no-image-input': 'this model does not accept images',
  'no-pdf-input': 'this model does not accept PDF documents',
  'format-not-accepted':
    'this provider does not accept that image format (build tool results with toolResultFrom for this provider to convert it)',
  'invalid-data': 'its data is not valid base64',
  'too-large-for-many-images':
    'with more than 20 images in the conversation the provider takes no side over 2000 px (fitConversation fits such images again instead)',
  'too-many-images': 'the message already carries as many images as the provider allows',
  'too-many-documents': 'the message already carries as many documents as the provider allows',
  'cannot-fit': "it could not be fitted to this provider's limits",
  'refused-by-provider':
    'the provider refused it once (it could not be processed), so it is left out of this and later requests; the session still holds it',
  'result-too-large':
    "the tool result would pass the host's bytes per result even with every image fitted to its smallest legible size: view that file alone (or fewer PDF pages) to see it",
  'request-too-large':
    "the request would pass this provider's bytes per request even with every image fitted to its smallest legible size; the newer media were kept and the session still holds this one: view the file again to see it",
};

function describe(part: MediaPart): string {
  switch (part.type) {
    case 'image':
      return part.width !== undefined && part.height !== undefined
        ? `an image (${part.mediaType}, ${part.width}x${part.height} px)`
        : `an image (${part.mediaType})`;
    case 'document': {
      const details = [
        part.filename,
        part.pages === undefined ? undefined : `${part.pages} page${part.pages === 1 ? '' : 's'}`,
      ].filter((d) => d !== undefined);
      return details.length > 0 ? `a PDF (${details.join(', ')})` : 'a PDF';
    }
    default: {
      const exhaustive: never = part;
      return exhaustive;
    }
  }
}

/** The text the model reads instead of media it cannot receive: what was there, and why it is not. */
export function placeholderFor(part: MediaPart, reason: OmitReason): TextPart {
  return { type: 'text', text: `[${describe(part)} was omitted: ${WHY[reason]}]` };
}

/** A placeholder plus the matching structured warning. */
export function omitMedia(
  part: MediaPart,
  reason: OmitReason,
  messageIndex: number,
  warnings: SerializeWarning[],
): TextPart {
  const placeholder = placeholderFor(part, reason);
  warnings.push({
    type: 'media-omitted',
    reason,
    mediaType: part.mediaType,
    messageIndex,
    message: placeholder.text.slice(1, -1),
  });
  return placeholder;
}

/** Why this model on this route cannot take this part, or undefined when it can. */
export function unreadableReason(
  part: Part,
  { capabilities, media }: Pick<ModelRoute, 'capabilities' | 'media'>,
): OmitReason | undefined {
  switch (part.type) {
    case 'text':
      return undefined;
    case 'image':
      if (!capabilities.imageInput) return 'no-image-input';
      return media.imageTypes.includes(part.mediaType) ? undefined : 'format-not-accepted';
    case 'document':
      return capabilities.pdfInput ? undefined : 'no-pdf-input';
    default: {
      const exhaustive: never = part;
      return exhaustive;
    }
  }
}

/**
 * The conversation as this model can read it: every image or PDF it cannot take, in the newest result and in
 * all earlier turns alike, becomes a placeholder. That is what lets a conversation move to a text-only model.
 */
export function projectForModel(
  messages: readonly Message[],
  route: Pick<ModelRoute, 'capabilities' | 'media'>,
  warnings: SerializeWarning[],
): Message[] {
  const project = (parts: Part[], index: number): Part[] =>
    parts.map((part) => {
      const reason = unreadableReason(part, route);
      return reason === undefined || part.type === 'text' ? part : omitMedia(part, reason, index, warnings);
    });
  return messages.map((message, index) => {
    switch (message.role) {
      case 'user':
        return { ...message, parts: project(message.parts, index) };
      case 'toolResult':
        return { ...message, parts: project(message.parts, index) };
      case 'assistant':
        return message;
      default: {
        const exhaustive: never = message;
        return exhaustive;
      }
    }
  });
}
