import type { ProviderName } from '../route/capabilities.js';
import type { EstimateOptions } from '../compaction/estimate-tokens.js';

/** A column of the token tables: one route and model whose rule differs from the others. */
export interface EstimateTarget {
  label: string;
  options: EstimateOptions;
}

/** The model the demo's replay agent stands in for on each route: current ids (the SDKs' model lists, 2026-11-30). */
export const DEMO_MODELS: Readonly<Record<ProviderName, string>> = {
  anthropic: 'claude-sonnet-5-5',
  'openai-chat': 'gpt-5.5',
  'openai-responses': 'gpt-5.5',
  gemini: 'gemini-3.1-pro-preview',
  bedrock: 'global.anthropic.claude-sonnet-5-5',
  ollama: 'gemma3',
};

/** A route's own column: its current model (DEMO_MODELS), labelled without Bedrock's inference-profile prefix. */
function currentModel(provider: ProviderName): EstimateTarget {
  const model = DEMO_MODELS[provider];
  return {
    label: `${provider} ${model.replace(/^(global|us|eu|apac)\.anthropic\./, '')}`,
    options: { provider, model },
  };
}

/**
 * Each route's current model, plus a current model of each other rule family (OpenAI's patch-counted minis,
 * Gemini 2.5's fixed tiles), so the tables show how far the providers' costs differ. No retired model: the
 * OpenAI Chat column priced gpt-4o until 2026-12-03.
 */
export const ESTIMATE_TARGETS: readonly EstimateTarget[] = [
  currentModel('anthropic'),
  currentModel('openai-chat'),
  currentModel('openai-responses'),
  { label: 'openai-responses gpt-5.4-mini', options: { provider: 'openai-responses', model: 'gpt-5.4-mini' } },
  { label: 'gemini gemini-2.5-flash', options: { provider: 'gemini', model: 'gemini-2.5-flash' } },
  currentModel('gemini'),
  currentModel('bedrock'),
  currentModel('ollama'),
  {
    label: 'fixed 4,800 chars per image',
    options: { provider: 'anthropic', model: DEMO_MODELS.anthropic, images: 'fixed' },
  },
];

/** The columns for one route (its own model first), or all of them. */
export function estimateTargets(provider: ProviderName | undefined): readonly EstimateTarget[] {
  if (provider === undefined) return ESTIMATE_TARGETS;
  return ESTIMATE_TARGETS.filter((target) => target.options.provider === provider && target.options.images !== 'fixed');
}
