import type { LanguageModelV3Prompt, LanguageModelV4Middleware, LanguageModelV4Prompt } from '@ai-sdk/provider';
import type { PresetName, ProcessOptions } from '@glimpse/media';
import type { AttachedPart } from '../results/attach.js';
import type { CapabilityRule, ModelCapabilities, ProviderName } from '../route/capabilities.js';
import { aiSdkRoute } from './ai-sdk-route.js';
import { AiSdkVersionError } from './ai-sdk-version-error.js';
import { bridgeV3Prompt } from './bridge-v3-prompt.js';
import { createFitCache } from '../fit-image.js';
import type { SerializeWarning } from '../providers/types.js';
import type { ImagePart } from '../types.js';
import { fitAiSdkPrompt } from './fit-ai-sdk-prompt.js';
import { fitAiSdkRequestBytes } from './fit-ai-sdk-request-bytes.js';
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
  /** Most bytes of one request (a gateway's cap); default the route's bytes per request (Anthropic 32 MB, …). */
  maxRequestBytes?: number;
  /** Told about each image or PDF replaced by a placeholder or a note, or fitted smaller for the request's bytes. */
  onWarning?: (warning: FitMediaWarning) => void;
  /**
   * The AI SDK major the middleware is typed for: 7 (default, `LanguageModelV4Middleware`) or 6
   * (`LanguageModelV3Middleware`, what `wrapLanguageModel` of `ai@6` takes). Only the type and the declared
   * `specificationVersion` follow it: at run time the middleware reads the wrapped model's specification version
   * and fits either prompt shape.
   */
  aiSdk?: 6 | 7;
}

/** What both specification versions hand `transformParams`: the call's options and the wrapped model. */
interface TransformCall<Params> {
  params: Params;
  model: { readonly specificationVersion: string; readonly provider: string; readonly modelId: string };
}

/**
 * The middleware as `ai@6`'s `wrapLanguageModel` takes it (its `LanguageModelV3Middleware`). `transformParams` is
 * generic over the call options, so it is the type of whichever `@ai-sdk/provider` 3.x the app's `ai@6` uses
 * (their JSON types differ from the V3 copies in `@ai-sdk/provider` 4).
 */
export interface FitMediaMiddlewareV3 {
  readonly specificationVersion: 'v3';
  overrideSupportedUrls?: () => Record<string, RegExp[]>;
  transformParams: <Params extends { prompt: unknown }>(call: TransformCall<Params>) => Promise<Params>;
}

/**
 * A language-model middleware for the AI SDK's `wrapLanguageModel`: before each call, every image and PDF in
 * the prompt (user files, and tool results of any tool or MCP server) is fitted to the wrapped model's route by
 * `@glimpse/media`, media the model cannot read become placeholders, and on routes whose tool messages are text
 * only (OpenAI Chat, the AI SDK's Ollama provider, Gemini before 3) tool-result media move into one user message
 * after the tool results, so the model sees them. Works under AI SDK 7 (LanguageModelV4) and AI SDK 6
 * (LanguageModelV3: `{ aiSdk: 6 }` types it for `ai@6`); a model of another specification (v2, AI SDK 5) is
 * refused with an `AiSdkVersionError` (`E_AI_SDK_VERSION`) rather than sent unfitted.
 *
 * ```ts
 * const model = wrapLanguageModel({ model: openai.chat('gpt-5.5'), middleware: fitMediaMiddleware() });
 * ```
 */
export function fitMediaMiddleware(options: FitMediaMiddlewareOptions & { aiSdk: 6 }): FitMediaMiddlewareV3;
export function fitMediaMiddleware(options?: FitMediaMiddlewareOptions & { aiSdk?: 7 }): LanguageModelV4Middleware;
export function fitMediaMiddleware(
  options: FitMediaMiddlewareOptions = {},
): FitMediaMiddlewareV3 | LanguageModelV4Middleware {
  const cache = new FitCache<AttachedPart>();
  const warn = options.onWarning ?? (() => {});
  const presetChoice = options.preset ?? options.limits?.preset;
  const budget = {
    cache: createFitCache(),
    parts: new Map<string, ImagePart>(),
    ...(options.maxRequestBytes !== undefined && { maxRequestBytes: options.maxRequestBytes }),
  };
  const warnBudget = (warning: SerializeWarning) => {
    if (warning.type === 'media-omitted' || warning.type === 'media-refitted') warn(warning);
  };
  const fit = async (prompt: LanguageModelV4Prompt, model: TransformCall<unknown>['model']) => {
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
    const fitted = await fitAiSdkPrompt(prompt, { route, options: processOptions, cache, warn });
    // The whole request within the route's bytes per request: older images fitted smaller first.
    return fitAiSdkRequestBytes(fitted, { route, ...budget, warn: warnBudget });
  };
  // The AI SDK calling a middleware hands it the prompt of its own specification, the one its wrapped model
  // declares (ai@7 turns every model into a V4 one first; ai@6 passes V3 models as they are).
  const transformParams = async <Params extends { prompt: unknown }>({
    params,
    model,
  }: TransformCall<Params>): Promise<Params> => {
    switch (model.specificationVersion) {
      case 'v4':
        return { ...params, prompt: await fit(params.prompt as LanguageModelV4Prompt, model) };
      case 'v3': {
        const bridged = bridgeV3Prompt(params.prompt as LanguageModelV3Prompt);
        return { ...params, prompt: bridged.back(await fit(bridged.prompt, model)) };
      }
      default:
        throw new AiSdkVersionError(model.specificationVersion, `${model.provider} ${model.modelId}`);
    }
  };
  const overrides = { ...(options.downloadUrls !== false && { overrideSupportedUrls: () => ({}) }), transformParams };
  return options.aiSdk === 6
    ? { specificationVersion: 'v3', ...overrides }
    : { specificationVersion: 'v4', ...overrides };
}
