import type { PresetName } from '@glimpse/media';
import type { CapabilityRule, ModelCapabilities, ProviderName } from '../route/capabilities.js';
import { resolveRoute, type ModelRoute } from '../route/resolve-route.js';

/** What the middleware needs to know about the model it wraps: its route, and whether tool-result media move. */
export interface AiSdkRoute extends ModelRoute {
  /**
   * Tool-result media go into one user message after the tool message: the route (or its AI SDK provider)
   * cannot carry them inside the result and would send them as JSON text, base64 and all.
   */
  liftToolMedia: boolean;
}

export interface AiSdkRouteQuery {
  /** The wrapped model's `provider` id, e.g. `openai.chat`, `anthropic.messages`, `google.generative-ai`. */
  providerId: string;
  modelId: string;
  /** Set by the app: wins over what the provider id says. */
  provider?: ProviderName;
  rules?: readonly CapabilityRule[];
  overrides?: Partial<ModelCapabilities>;
  preset?: PresetName;
}

/**
 * The glimpse route an AI SDK provider id stands for, or undefined for one glimpse does not know. The gateway
 * names the upstream provider in the model id (`anthropic/claude-…`), so that is read instead.
 */
export function routeOfProviderId(providerId: string, modelId: string): ProviderName | undefined {
  const id = providerId.toLowerCase();
  if (id === 'gateway') {
    const upstream = modelId.split('/')[0]?.toLowerCase() ?? '';
    return routeOfProviderId(
      upstream === 'openai' ? 'openai.responses' : upstream === 'google' ? 'google.generative-ai' : upstream,
      modelId,
    );
  }
  if (id.includes('anthropic')) return 'anthropic';
  if (id.startsWith('ollama')) return 'ollama';
  if (id.includes('bedrock')) return 'bedrock';
  if (id.startsWith('google') || id.startsWith('vertex')) return 'gemini';
  if (id.startsWith('openai') || id.startsWith('azure'))
    return id.endsWith('.responses') ? 'openai-responses' : 'openai-chat';
  return undefined;
}

/**
 * The route of a wrapped model. A provider glimpse does not know is treated as OpenAI Chat (what most
 * OpenAI-compatible providers speak) with the portable limits, and its tool-result media are lifted: a user
 * message with images is the one shape every chat API reads.
 */
export function aiSdkRoute(query: AiSdkRouteQuery): AiSdkRoute {
  const known = query.provider ?? routeOfProviderId(query.providerId, query.modelId);
  const provider = known ?? 'openai-chat';
  const preset = query.preset ?? (known === undefined ? 'portable' : undefined);
  const route = resolveRoute({
    provider,
    model: query.modelId,
    ...(query.rules && { rules: query.rules }),
    ...((query.overrides !== undefined || preset !== undefined) && {
      overrides: { ...query.overrides, ...(preset !== undefined && { preset }) },
    }),
  });
  // The AI SDK's Ollama provider writes a tool result as one JSON string, although Ollama's own API reads images there.
  const liftToolMedia = known === undefined || provider === 'ollama' || !route.capabilities.mediaInToolResults;
  return { ...route, liftToolMedia };
}
