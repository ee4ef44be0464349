import type { PresetName } from '@glimpse/media';

/** The wire APIs glimpse serializes for. */
export type ProviderName = 'anthropic' | 'openai-chat' | 'openai-responses' | 'gemini' | 'bedrock' | 'ollama';

export const PROVIDER_NAMES: readonly ProviderName[] = ['anthropic', 'openai-chat', 'openai-responses', 'gemini', 'bedrock', 'ollama'];

export function isProviderName(name: string): name is ProviderName {
  return (PROVIDER_NAMES as readonly string[]).includes(name);
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
}

/** One registry entry: the first rule whose `match` finds the lower-cased model id wins. */
export interface CapabilityRule {
  /** Tested against the whole lower-cased id, so gateway prefixes (`anthropic/`, `us.anthropic.`, `models/`) still match. */
  match: RegExp;
  /** Only on these routes; on every route when absent. */
  providers?: readonly ProviderName[];
  capabilities: Partial<ModelCapabilities>;
}

/**
 * What a route assumes before any rule applies: every hosted route defaults to a vision model, because
 * new models there are multimodal and a text-only model answers an image with a loud 400. Ollama defaults to
 * text-only: most local models are, and they ignore images silently and then describe what they cannot see.
 */
export const ROUTE_DEFAULTS: Readonly<Record<ProviderName, ModelCapabilities>> = {
  anthropic: { imageInput: true, pdfInput: true, mediaInToolResults: true, preset: 'anthropic' },
  'openai-chat': { imageInput: true, pdfInput: true, mediaInToolResults: false, preset: 'openai' },
  'openai-responses': { imageInput: true, pdfInput: true, mediaInToolResults: true, preset: 'openai' },
  gemini: { imageInput: true, pdfInput: true, mediaInToolResults: true, preset: 'gemini' },
  bedrock: { imageInput: true, pdfInput: true, mediaInToolResults: false, preset: 'bedrock' },
  ollama: { imageInput: false, pdfInput: false, mediaInToolResults: true, preset: 'ollama' },
};

const TEXT_ONLY: Partial<ModelCapabilities> = { imageInput: false, pdfInput: false };
const VISION: Partial<ModelCapabilities> = { imageInput: true };

// Order matters: specific exceptions sit above the family rule they carve out of.
export const DEFAULT_CAPABILITY_RULES: readonly CapabilityRule[] = [
  // Anthropic: every Claude 3+ model reads images and PDFs, inside tool results too (Bedrock included).
  { match: /claude-(instant|2)/, capabilities: TEXT_ONLY },
  { match: /claude/, capabilities: { imageInput: true, pdfInput: true, mediaInToolResults: true } },
  // OpenAI: text-only exceptions first, then the vision families.
  { match: /gpt-3\.5|gpt-oss|(^|[/.])gpt-4(-0314|-0613|-32k\S*|-(0125|1106)-preview|-turbo-preview)?$|(^|[/.])o1-(mini|preview)|(^|[/.])o3-mini/, capabilities: TEXT_ONLY },
  { match: /gpt-4|gpt-5|chatgpt|(^|[/.])o[134](-|$)/, capabilities: { imageInput: true, pdfInput: true } },
  // Gemini 3 and later take media inside functionResponse; 2.x and older answer that with a 400.
  { match: /gemini-([3-9]|\d\d)/, capabilities: { imageInput: true, pdfInput: true, mediaInToolResults: true } },
  { match: /gemini/, capabilities: { imageInput: true, pdfInput: true, mediaInToolResults: false } },
  { match: /gemma-?3n?(?!\d)/, capabilities: { imageInput: true } },
  // Amazon Nova: Micro is text-only; the others read images, and on Bedrock inside tool results.
  { match: /nova-micro/, capabilities: TEXT_ONLY },
  { match: /nova/, capabilities: { imageInput: true, pdfInput: true, mediaInToolResults: true } },
  // Llama: 3.2 11B/90B (vision) and Llama 4 read images; every other Llama is text-only.
  { match: /llama-?3[.-]2[.-]?(11|90)b|llama-?3\.2-vision|llama-?4/, capabilities: VISION },
  { match: /llama/, capabilities: TEXT_ONLY },
  // Qwen: the VL/omni/QVQ models read images; the rest are text-only.
  { match: /qwen.*(vl|omni)|qvq/, capabilities: VISION },
  { match: /qwen/, capabilities: TEXT_ONLY },
  // Open vision models common on Ollama and gateways.
  { match: /llava|minicpm-v|moondream|pixtral|granite.*vision|mistral-small-?3\.[12]|mistral-medium-?3/, capabilities: VISION },
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
}

/** The first rule that matches the model on this route, if any. */
export function matchCapabilityRule(query: Pick<CapabilitiesQuery, 'provider' | 'model' | 'rules'>): CapabilityRule | undefined {
  if (query.model === undefined) return undefined;
  const id = query.model.toLowerCase();
  return [...(query.rules ?? []), ...DEFAULT_CAPABILITY_RULES].find(
    (rule) => (rule.providers === undefined || rule.providers.includes(query.provider)) && rule.match.test(id),
  );
}

/**
 * Capabilities of a model on a route: the route's default, then the first matching rule, then the overrides.
 * A model no rule knows gets the route's default (see ROUTE_DEFAULTS: vision on hosted routes, text-only on
 * Ollama). Route facts win last: Ollama has no documents, and OpenAI Chat never carries media in tool messages.
 */
export function capabilitiesFor(query: CapabilitiesQuery): ModelCapabilities {
  const rule = matchCapabilityRule(query);
  const merged: ModelCapabilities = { ...ROUTE_DEFAULTS[query.provider], ...rule?.capabilities, ...query.overrides };
  switch (query.provider) {
    case 'ollama':
      return { ...merged, pdfInput: false };
    case 'openai-chat':
      return { ...merged, mediaInToolResults: false };
    case 'bedrock':
      // Bedrock caps images at 3.75 MB and documents at 4.5 MB whatever the model.
      return { ...merged, preset: query.overrides?.preset ?? 'bedrock' };
    case 'anthropic':
    case 'openai-responses':
    case 'gemini':
      return merged;
    default: {
      const exhaustive: never = query.provider;
      return exhaustive;
    }
  }
}
