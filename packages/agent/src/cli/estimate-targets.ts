import type { ProviderName } from '../route/capabilities.js';
import type { EstimateOptions } from '../compaction/estimate-tokens.js';

/** A column of the token tables: one route and model whose rule differs from the others. */
export interface EstimateTarget {
  label: string;
  options: EstimateOptions;
}

/** One representative model per rule family, so the tables show how far the providers' costs differ. */
export const ESTIMATE_TARGETS: readonly EstimateTarget[] = [
  { label: 'anthropic claude-sonnet-5-5', options: { provider: 'anthropic', model: 'claude-sonnet-5-5' } },
  { label: 'openai-chat gpt-4o', options: { provider: 'openai-chat', model: 'gpt-4o' } },
  { label: 'openai-responses gpt-5.5', options: { provider: 'openai-responses', model: 'gpt-5.5' } },
  { label: 'openai-responses gpt-5.4-mini', options: { provider: 'openai-responses', model: 'gpt-5.4-mini' } },
  { label: 'gemini gemini-2.5-flash', options: { provider: 'gemini', model: 'gemini-2.5-flash' } },
  { label: 'gemini gemini-3.1-pro-preview', options: { provider: 'gemini', model: 'gemini-3.1-pro-preview' } },
  { label: 'bedrock claude-sonnet-5-5', options: { provider: 'bedrock', model: 'global.anthropic.claude-sonnet-5-5' } },
  { label: 'ollama gemma3', options: { provider: 'ollama', model: 'gemma3' } },
  {
    label: 'fixed 4,800 chars per image',
    options: { provider: 'anthropic', model: 'claude-sonnet-5-5', images: 'fixed' },
  },
];

/** The model the demo's replay agent stands in for on each route: current ids (the SDKs' model lists, 2026-11-30). */
export const DEMO_MODELS: Readonly<Record<ProviderName, string>> = {
  anthropic: 'claude-sonnet-5-5',
  'openai-chat': 'gpt-5.5',
  'openai-responses': 'gpt-5.5',
  gemini: 'gemini-3.1-pro-preview',
  bedrock: 'global.anthropic.claude-sonnet-5-5',
  ollama: 'gemma3',
};

/** The columns for one route (its own model first), or all of them. */
export function estimateTargets(provider: ProviderName | undefined): readonly EstimateTarget[] {
  if (provider === undefined) return ESTIMATE_TARGETS;
  return ESTIMATE_TARGETS.filter((target) => target.options.provider === provider && target.options.images !== 'fixed');
}
