import type { ProviderName } from '../route/capabilities.js';
import { routeFor, type ModelRoute } from '../route/resolve-route.js';
import type { DocumentPart, ImagePart, Message, Part } from '../types.js';
import type { WorkingSize } from '@glimpse/media';
import {
  ANTHROPIC_HIGH_RESOLUTION,
  ANTHROPIC_STANDARD,
  anthropicImageTokens,
  type AnthropicTier,
} from './anthropic-image-tokens.js';
import {
  GEMINI_MEDIA_RESOLUTION_TOKENS,
  GEMINI_TILE_TOKENS,
  geminiImageLevel,
  geminiTileTokens,
  usesMediaResolution,
  type GeminiMediaResolution,
} from './gemini-image-tokens.js';
import { openAIImageRule, openAIImageTokens } from './openai-image-tokens.js';

/** The seed's rule, kept as an option: every image counts as 4,800 characters (1,200 tokens), whatever its size. */
export const FIXED_IMAGE_CHARS = 4_800;
/** The Ollama server's own estimate per image. */
export const OLLAMA_IMAGE_TOKENS = 768;
/** What a placeholder for omitted media costs: a short sentence. */
export const PLACEHOLDER_TOKENS = 30;

export interface EstimateOptions {
  provider: ProviderName;
  /** Picks the provider's rule family (OpenAI tiles or patches, Gemini 3 media_resolution, capabilities). */
  model?: string;
  /** The route resolved already (the agent loop passes its own); `model` is then not read. */
  route?: ModelRoute;
  /** `pixels` (default): each provider's rule from the image's width and height. `fixed`: 4,800 chars per image. */
  images?: 'pixels' | 'fixed';
  /** Anthropic high-resolution models (2576 px, 4784 tokens); absent, the model's tier from the registry. */
  highResolution?: boolean;
  /** OpenAI `detail`; `low` costs the base alone. */
  detail?: 'high' | 'low';
  /**
   * Gemini 3 `media_resolution`; absent, an image counts at the level the serializer sets for its size (the
   * cheapest that holds it, at most high: `geminiImageLevel`), one inside a function response at high (the
   * API takes no level there), a PDF page at medium.
   */
  mediaResolution?: GeminiMediaResolution;
}

/** The tier to count with: `highResolution` when set, else the model's working size (the registry knows Claude's tiers). */
function anthropicTier(options: EstimateOptions, working: WorkingSize | undefined): AnthropicTier {
  if (options.highResolution !== undefined)
    return options.highResolution ? ANTHROPIC_HIGH_RESOLUTION : ANTHROPIC_STANDARD;
  if (working?.patches?.size !== 28) return ANTHROPIC_STANDARD;
  return { maxEdge: working.maxEdge, maxTokens: working.patches.max };
}

/** Text ≈ one token per four characters, the usual planning figure across providers. */
export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * Tokens one image costs on the route. Images without a recorded size fall back to the fixed 4,800
 * characters (on Gemini 3: high's 1,120, the level they are sent at); images a text-only model never sees cost
 * their placeholder.
 */
export function estimateImageTokens(image: Pick<ImagePart, 'width' | 'height'>, options: EstimateOptions): number {
  const { capabilities, provider, model } = routeFor(options.provider, options);
  if (!capabilities.imageInput) return PLACEHOLDER_TOKENS;
  const { width, height } = image;
  if (options.images === 'fixed') return FIXED_IMAGE_CHARS / 4;
  // Gemini 3 prices by level, and the serializer sends an image of unknown size at high: the estimate says the same.
  if (provider === 'gemini' && usesMediaResolution(model))
    return GEMINI_MEDIA_RESOLUTION_TOKENS[
      options.mediaResolution ?? geminiImageLevel(width, height, capabilities.maxMediaResolution)
    ];
  if (width === undefined || height === undefined) return FIXED_IMAGE_CHARS / 4;
  switch (provider) {
    case 'anthropic':
    case 'bedrock':
      // Bedrock's vision models are mostly Claude; its rule is the one to plan with.
      return anthropicImageTokens(width, height, anthropicTier(options, capabilities.workingSize));
    case 'openai-chat':
    case 'openai-responses':
      return openAIImageTokens(width, height, openAIImageRule(model), options.detail);
    case 'gemini':
      return geminiTileTokens(width, height);
    case 'ollama':
      return OLLAMA_IMAGE_TOKENS;
    default: {
      const exhaustive: never = provider;
      return exhaustive;
    }
  }
}

/**
 * Anthropic and OpenAI read a PDF page as its text plus an image of the page: Anthropic documents
 * 1,500–3,000 text tokens per page (we take the middle) and the page image costs what a letter page
 * at the route's working size costs. Gemini prices a page like an image (258, or media_resolution).
 */
const PDF_PAGE_TEXT_TOKENS = 2_250;
const LETTER_PAGE_PX = { width: 1275, height: 1650 };

/** Tokens one PDF costs on the route; `pages` unknown counts as one page. */
export function estimateDocumentTokens(document: Pick<DocumentPart, 'pages'>, options: EstimateOptions): number {
  const route = routeFor(options.provider, options);
  if (!route.capabilities.pdfInput) return PLACEHOLDER_TOKENS;
  const pages = document.pages ?? 1;
  switch (route.provider) {
    case 'anthropic':
    case 'bedrock':
    case 'openai-chat':
    case 'openai-responses': {
      const pageImage = estimateImageTokens(LETTER_PAGE_PX, { ...options, route, images: 'pixels' });
      return pages * (PDF_PAGE_TEXT_TOKENS + pageImage);
    }
    case 'gemini':
      return (
        pages *
        (usesMediaResolution(route.model)
          ? GEMINI_MEDIA_RESOLUTION_TOKENS[options.mediaResolution ?? 'medium']
          : GEMINI_TILE_TOKENS)
      );
    case 'ollama':
      return PLACEHOLDER_TOKENS;
    default: {
      const exhaustive: never = route.provider;
      return exhaustive;
    }
  }
}

export function estimatePartTokens(part: Part, options: EstimateOptions): number {
  switch (part.type) {
    case 'text':
      return estimateTextTokens(part.text);
    case 'image':
      return estimateImageTokens(part, options);
    case 'document':
      return estimateDocumentTokens(part, options);
    default: {
      const exhaustive: never = part;
      return exhaustive;
    }
  }
}

/** Tokens of one message: its parts, or the assistant's text and tool calls (name plus JSON arguments). */
export function estimateMessageTokens(message: Message, options: EstimateOptions): number {
  switch (message.role) {
    case 'user':
    case 'toolResult': {
      const route = routeFor(options.provider, options);
      // Gemini 3 reads media inside a function response at its default level (high): no level can be set there.
      const insideResponse =
        message.role === 'toolResult' &&
        route.provider === 'gemini' &&
        usesMediaResolution(route.model) &&
        route.capabilities.mediaInToolResults &&
        options.mediaResolution === undefined;
      const resolved = { ...options, route, ...(insideResponse && { mediaResolution: 'high' as const }) };
      return message.parts.reduce(
        (sum, part) =>
          sum + estimatePartTokens(part, part.type === 'document' && insideResponse ? { ...options, route } : resolved),
        0,
      );
    }
    case 'assistant':
      return (
        estimateTextTokens(message.text) +
        message.toolCalls.reduce((sum, call) => sum + estimateTextTokens(call.name + JSON.stringify(call.arguments)), 0)
      );
    default: {
      const exhaustive: never = message;
      return exhaustive;
    }
  }
}
