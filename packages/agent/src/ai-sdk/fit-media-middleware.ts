import type { LanguageModelV4Middleware } from '@ai-sdk/provider';
import type { PresetName, ProcessOptions } from '@glimpse/media';
import type { AttachedPart } from '../results/attach.js';
import type { CapabilityRule, ModelCapabilities, ProviderName } from '../route/capabilities.js';
import { aiSdkRoute } from './ai-sdk-route.js';
import { fitAiSdkPrompt } from './fit-ai-sdk-prompt.js';
import { FitCache } from './fit-cache.js';
import type { FitMediaWarning } from './fit-media-warning.js';
import { fitOptions } from '../route/fit-options.js';

export interface FitMediaMiddlewareOptions {
  /** The wire API the wrapped model speaks. Default: read from the model's provider id (`openai.chat` → `openai-chat`). */
  provider?: ProviderName;
  /** The model id capabilities are looked up for. Default: the wrapped model's `modelId`. */
  model?: string;
  /** App capability rules, tried before the built-in registry. */
  rules?: readonly CapabilityRule[];
  /** Applied over the registry's answer: `{ imageInput: false }` makes the model text-only. */
  capabilities?: Partial<ModelCapabilities>;
  /** The `@glimpse/media` limits. Default: the route's preset (`portable` for a provider glimpse does not know). */
  preset?: PresetName;
  /** Explicit limits over the preset's. */
  limits?: Omit<ProcessOptions, 'provider'>;
  /**
   * Have the AI SDK download every URL in the prompt (it does, for URLs the model does not fetch itself), so that
   * remote images and PDFs are fitted too instead of reaching the provider unseen. Default true.
   */
  downloadUrls?: boolean;
  /** Told about each image or PDF replaced by a placeholder or a note. */
  onWarning?: (warning: FitMediaWarning) => void;
}

/**
 * A language-model middleware for the AI SDK's `wrapLanguageModel`: before each call, every image and PDF in
 * the prompt (user files, and tool results of any tool or MCP server) is fitted to the wrapped model's route by
 * `@glimpse/media`, media the model cannot read become placeholders, and on routes whose tool messages are text
 * only (OpenAI Chat, the AI SDK's Ollama provider, Gemini before 3) tool-result media move into one user message
 * after the tool results, so the model sees them.
 *
 * ```ts
 * const model = wrapLanguageModel({ model: openai.chat('gpt-5.5'), middleware: fitMediaMiddleware() });
 * ```
 */
export function fitMediaMiddleware(options: FitMediaMiddlewareOptions = {}): LanguageModelV4Middleware {
  const cache = new FitCache<AttachedPart>();
  const warn = options.onWarning ?? (() => {});
  const presetChoice = options.preset ?? options.limits?.preset;
  return {
    specificationVersion: 'v4',
    ...(options.downloadUrls !== false && { overrideSupportedUrls: () => ({}) }),
    transformParams: async ({ params, model }) => {
      const route = aiSdkRoute({
        providerId: model.provider,
        modelId: options.model ?? model.modelId,
        ...(options.provider !== undefined && { provider: options.provider }),
        ...(options.rules !== undefined && { rules: options.rules }),
        ...(options.capabilities !== undefined && { overrides: options.capabilities }),
        ...(presetChoice !== undefined && { preset: presetChoice }),
      });
      // The model's working size (Claude's tiers, OpenAI's tiles or patches) refines the preset, unless one was chosen.
      const processOptions: ProcessOptions = {
        ...fitOptions(route.capabilities),
        ...options.limits,
        preset: route.preset,
      };
      return {
        ...params,
        prompt: await fitAiSdkPrompt(params.prompt, { route, options: processOptions, cache, warn }),
      };
    },
  };
}
