import { ROUTE_NAMES, ROUTES, isRouteName, type PresetName, type RouteName, type WorkingSize } from '@glimpse/media';
import type { GeminiMaxMediaResolution } from '../compaction/gemini-image-tokens.js';
import { isGemini3, takesMediaInToolResults, WIRE_FACTS } from './wire-facts.js';
import { GEMINI_3_HIGH_SIZE, GEMINI_3_ULTRA_HIGH_SIZE, workingSizeFor, type ImageDetail } from './working-sizes.js';

/** The wire APIs glimpse serializes for (the route table's keys: `ROUTES` in `@glimpse/media`). */
export type ProviderName = RouteName;

export const PROVIDER_NAMES: readonly ProviderName[] = ROUTE_NAMES;

export function isProviderName(name: string): name is ProviderName {
  return isRouteName(name);
}

/** What one model can take, as the serializers and `toolResultFrom` need to know it. */
export interface ModelCapabilities {
  /** The model reads images. When false, serializers replace every image (history included) with a placeholder. */
  imageInput: boolean;
  /** The model reads PDFs. When false, PDFs become placeholders. */
  pdfInput: boolean;
  /**
   * Media may ride inside the tool result itself on this route (Gemini 3, Claude and Nova on Bedrock).
   * When false, serializers move the media next to the results in the same turn, or into the next user message.
   * OpenAI Chat ignores it: its tool messages are text only, always.
   */
  mediaInToolResults: boolean;
  /** Which `@glimpse/media` limits attachments are fitted to. */
  preset: PresetName;
  /**
   * The size the model works at, where the registry knows it (`WORKING_SIZE_RULES`): images are fitted to it
   * (media's `workingSize`) instead of the preset's edge alone, so the provider does not downscale them again
   * and the coordinate note states the size the model sees. Absent when the app chose another preset.
   */
  workingSize?: WorkingSize;
  /**
   * OpenAI's `detail` the images are fitted for; the OpenAI serializers send it. Ask for `original` in the
   * overrides: it holds only on models that take it (gpt-5.4 and later, not mini or nano), else `high` stays.
   */
  imageDetail?: ImageDetail;
  /**
   * Gemini 3: the highest `media_resolution` level the serializer may set on an image (default `high`). Never
   * chosen by glimpse; ask for `ultra_high` in the overrides (2,240 tokens an image, twice high): images are then
   * fitted to ultra_high's working size, the serializer sets the cheapest level that holds each whole, up to
   * ultra_high, and tool-result media go after the function responses (the API takes no level inside
   * `functionResponse.parts`). Dropped on other models.
   */
  maxMediaResolution?: GeminiMaxMediaResolution;
}

/** One registry entry: the first rule whose `match` finds the lower-cased model id wins. */
export interface CapabilityRule {
  /** Tested against the whole lower-cased id, so gateway prefixes (`anthropic/`, `us.anthropic.`, `models/`) still match. */
  match: RegExp;
  /** Only on these routes; on every route when absent. */
  providers?: readonly ProviderName[];
  capabilities: Partial<ModelCapabilities>;
}

const TEXT_ONLY: Partial<ModelCapabilities> = { imageInput: false, pdfInput: false };
const VISION: Partial<ModelCapabilities> = { imageInput: true };

// Order matters: specific exceptions sit above the family rule they carve out of.
export const DEFAULT_CAPABILITY_RULES: readonly CapabilityRule[] = [
  // Anthropic: every Claude 3+ model (claude-sonnet-5-5, claude-opus-5-5, claude-haiku-5-5, …) reads images and PDFs.
  { match: /claude-(instant|2)/, capabilities: TEXT_ONLY },
  { match: /claude/, capabilities: { imageInput: true, pdfInput: true } },
  // OpenAI: text-only exceptions first, then the vision families.
  {
    match:
      /gpt-3\.5|gpt-oss|(^|[/.])gpt-4(-0314|-0613|-32k\S*|-(0125|1106)-preview|-turbo-preview)?$|(^|[/.])o1-(mini|preview)|(^|[/.])o3-mini/,
    capabilities: TEXT_ONLY,
  },
  { match: /gpt-([4-9]|\d\d)|chatgpt|(^|[/.])o[134](-|$)/, capabilities: { imageInput: true, pdfInput: true } },
  // Gemini: all read images and PDFs (whether inside functionResponse is the route's fact: Gemini 3 style).
  { match: /gemini/, capabilities: { imageInput: true, pdfInput: true } },
  { match: /gemma-?3n?(?!\d)/, capabilities: { imageInput: true } },
  // Amazon Nova: Micro is text-only; the others read images (on Bedrock inside tool results: a route fact).
  { match: /nova-micro/, capabilities: TEXT_ONLY },
  { match: /nova/, capabilities: { imageInput: true, pdfInput: true } },
  // Llama: 3.2 11B/90B (vision) and Llama 4 read images; every other Llama is text-only.
  { match: /llama-?3[.-]2[.-]?(11|90)b|llama-?3\.2-vision|llama-?4/, capabilities: VISION },
  { match: /llama/, capabilities: TEXT_ONLY },
  // Qwen: the VL/omni/QVQ models read images; the rest are text-only.
  { match: /qwen.*(vl|omni)|qvq/, capabilities: VISION },
  { match: /qwen/, capabilities: TEXT_ONLY },
  // Open vision models common on Ollama and gateways.
  {
    match: /llava|minicpm-v|moondream|pixtral|granite.*vision|mistral-small-?3\.[12]|mistral-medium-?3/,
    capabilities: VISION,
  },
  { match: /deepseek|mistral|mixtral|codestral|phi-?\d|command|jamba|titan/, capabilities: TEXT_ONLY },
];

export interface CapabilitiesQuery {
  provider: ProviderName;
  /** The model id as the provider names it; absent means "the route's default model". */
  model?: string;
  /** App rules, tried before the built-in ones. */
  rules?: readonly CapabilityRule[];
  /** Applied last, over whatever the rules found: `{ imageInput: false }` is `--no-vision`. */
  overrides?: Partial<ModelCapabilities>;
  /**
   * Never set: it keeps a resolved `ModelRoute` (which has `provider` and `model` too) from being taken for a
   * query, which would drop its overrides. Where a route is resolved already, read its `capabilities`.
   */
  capabilities?: never;
}

/** The first rule that matches the model on this route, if any. */
export function matchCapabilityRule(
  query: Pick<CapabilitiesQuery, 'provider' | 'model' | 'rules'>,
): CapabilityRule | undefined {
  if (query.model === undefined) return undefined;
  const id = query.model.toLowerCase();
  return [...(query.rules ?? []), ...DEFAULT_CAPABILITY_RULES].find(
    (rule) => (rule.providers === undefined || rule.providers.includes(query.provider)) && rule.match.test(id),
  );
}

/**
 * Capabilities of a model on a route: what the route assumes of a model it does not know (`WIRE_FACTS[p].unknownModel`:
 * vision on hosted routes, text-only on Ollama), then the first matching rule, then the overrides. The route's own
 * facts win last: no model or override makes a route carry what its API cannot (PDFs on Ollama, media inside an
 * OpenAI Chat tool message), and Bedrock's per-image and per-document caps hold whatever the model.
 * Code that passes a route on resolves it once with `resolveRoute`, which holds this answer.
 */
export function capabilitiesFor(query: CapabilitiesQuery): ModelCapabilities {
  const media = ROUTES[query.provider];
  const wire = WIRE_FACTS[query.provider];
  const rule = matchCapabilityRule(query);
  // A model's working size refines the route's own preset; a preset the app or a rule chose is kept as it is.
  const ownPreset = query.overrides?.preset === undefined && rule?.capabilities.preset === undefined;
  const sized = ownPreset
    ? workingSizeFor(query.model, query.overrides?.imageDetail ?? rule?.capabilities.imageDetail)
    : {};
  const merged: ModelCapabilities = {
    ...wire.unknownModel,
    mediaInToolResults: takesMediaInToolResults(query.provider, query.model),
    preset: media.preset,
    ...sized,
    ...rule?.capabilities,
    ...query.overrides,
  };
  if (
    merged.imageDetail === 'original' &&
    sized.imageDetail !== 'original' &&
    query.overrides?.workingSize === undefined
  )
    merged.imageDetail = sized.imageDetail ?? 'high';
  // ultra_high only where Gemini 3 takes per-part levels, and only when asked for.
  if (merged.maxMediaResolution !== undefined && !(query.provider === 'gemini' && isGemini3(query.model)))
    delete merged.maxMediaResolution;
  if (merged.maxMediaResolution === 'ultra_high') {
    if (merged.workingSize === GEMINI_3_HIGH_SIZE) merged.workingSize = GEMINI_3_ULTRA_HIGH_SIZE;
    if (query.overrides?.mediaInToolResults === undefined) merged.mediaInToolResults = false;
  }
  return {
    ...merged,
    pdfInput: merged.pdfInput && media.pdfInput,
    mediaInToolResults: merged.mediaInToolResults && wire.mediaInToolResults !== false,
    preset: query.provider === 'bedrock' ? (query.overrides?.preset ?? media.preset) : merged.preset,
  };
}
