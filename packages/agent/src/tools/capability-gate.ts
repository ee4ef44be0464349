import type { CapabilitiesQuery, ModelCapabilities } from '../route/capabilities.js';
import { matchCapabilityRule } from '../route/capabilities.js';
import { resolveRoute } from '../route/resolve-route.js';
import { FileError } from '../fs/file-error.js';

/**
 * Where the file tools learn what the current model can see. Both are read again at every call, so a
 * session that switches models mid-way is gated on the model the result will actually go to.
 */
export interface CapabilitySource {
  /** The current route: provider, model id, app rules and overrides (see `capabilitiesFor`). */
  route?: CapabilitiesQuery | (() => CapabilitiesQuery | undefined);
  /** The app's own declaration; wins over the registry. Needed for models the registry does not know. */
  capabilities?: ModelCapabilities | (() => ModelCapabilities | undefined);
}

export type CapabilityAnswer =
  | { known: true; capabilities: ModelCapabilities }
  | { known: false; model: string | undefined };

/** What the current model can take, or `known: false` when neither the app nor a registry rule says whether it sees images. */
export function currentCapabilities({ route, capabilities }: CapabilitySource): CapabilityAnswer {
  const declared = typeof capabilities === 'function' ? capabilities() : capabilities;
  if (declared !== undefined) return { known: true, capabilities: declared };
  const query = typeof route === 'function' ? route() : route;
  if (query === undefined) return { known: false, model: undefined };
  // A route default ("hosted routes are vision") is a guess, not knowledge: only a rule or an override counts.
  const rule = matchCapabilityRule(query);
  if (rule?.capabilities.imageInput === undefined && query.overrides?.imageInput === undefined)
    return { known: false, model: query.model };
  return { known: true, capabilities: resolveRoute(query).capabilities };
}

/** Whether to offer `view_file` at all: only to models known to take images. */
export function offersViewFile(source: CapabilitySource): boolean {
  const answer = currentCapabilities(source);
  return answer.known && answer.capabilities.imageInput;
}

/** The execution-time re-check: the capabilities to fit for, or an error the model (and the app developer) can act on. */
export function requireImageInput(source: CapabilitySource): ModelCapabilities {
  const capabilities = requireKnownCapabilities(source);
  if (!capabilities.imageInput) throw noImageInput();
  return capabilities;
}

/** A text-only model cannot take what view_file sends for images; the error says what to use instead. */
export function noImageInput(): FileError {
  return new FileError(
    'E_NO_IMAGE_INPUT',
    'view_file is disabled: the current model cannot see images or PDFs. Use read for text files, or switch to a vision model.',
    {},
  );
}

/** The capabilities of the current model, known from the app or a registry rule; otherwise E_CAPABILITY_UNKNOWN. */
export function requireKnownCapabilities(source: CapabilitySource): ModelCapabilities {
  const answer = currentCapabilities(source);
  if (!answer.known) {
    throw new FileError(
      'E_CAPABILITY_UNKNOWN',
      `view_file is disabled: glimpse does not know whether ${answer.model === undefined ? 'the current model' : `model ${JSON.stringify(answer.model)}`} can see images, and sending images to a text-only model makes it describe what it cannot see. The app can declare it (capabilities: { imageInput: true, … } or a capability rule). Use read for text files.`,
      { model: answer.model },
    );
  }
  return answer.capabilities;
}
