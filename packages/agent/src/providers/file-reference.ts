import type { RouteName } from '@glimpse/media';
import { WIRE_FACTS } from '../route/wire-facts.js';
import type { FileReference, MediaPart } from '../types.js';

/** Whose uploads a route names: both OpenAI wire APIs read the same Files store. */
export function referenceProvider(route: RouteName): FileReference['provider'] | undefined {
  switch (route) {
    case 'anthropic':
      return 'anthropic';
    case 'openai-chat':
    case 'openai-responses':
      return 'openai';
    case 'gemini':
      return 'gemini';
    case 'bedrock':
    case 'ollama':
      return undefined;
    default: {
      const exhaustive: never = route;
      return exhaustive;
    }
  }
}

/** Whether the route can name this kind of medium by a file reference (`WIRE_FACTS[route].fileReferences`). */
export function takesFileReference(route: RouteName, part: MediaPart): boolean {
  return WIRE_FACTS[route].fileReferences.includes(part.type);
}

/**
 * The reference a serializer sends for this part instead of its base64: one uploaded to this route's provider, for
 * a kind of medium the route names by reference. Anything else (no upload, another provider's) goes inline.
 */
export function fileReferenceOf(route: RouteName, part: MediaPart): FileReference | undefined {
  const { reference } = part;
  if (reference === undefined || reference.provider !== referenceProvider(route)) return undefined;
  return takesFileReference(route, part) ? reference : undefined;
}
