import type { Api, Model } from '@mariozechner/pi-ai';
import type { PresetName } from '@glimpse/media';
import type { ProviderName } from '../route/capabilities.js';
import { presetOf } from '../route/resolve-route.js';

/** The part of a pi model glimpse reads: its wire API, provider, id and input modalities. */
export type PiModelInfo = Pick<Model<Api>, 'api' | 'provider' | 'id' | 'input'>;

/** The glimpse route a pi wire API stands for; undefined for one glimpse does not know (fitted with `portable`). */
export function routeOfPiModel(model: PiModelInfo): ProviderName | undefined {
  // pi reaches Ollama (and other local servers) through its OpenAI-compatible endpoint.
  if (model.provider === 'ollama') return 'ollama';
  switch (model.api) {
    case 'anthropic-messages':
      return 'anthropic';
    case 'openai-completions':
      return 'openai-chat';
    case 'openai-responses':
    case 'azure-openai-responses':
    case 'openai-codex-responses':
      return 'openai-responses';
    case 'google-generative-ai':
    case 'google-vertex':
      return 'gemini';
    case 'bedrock-converse-stream':
      return 'bedrock';
    default:
      return undefined;
  }
}

/** The limits media are fitted to for a pi model. */
export function presetForPiModel(model: PiModelInfo): PresetName {
  const provider = routeOfPiModel(model);
  return presetOf(provider === undefined ? {} : { provider, model: model.id });
}
