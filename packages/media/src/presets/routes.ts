import type { PresetName, SendableImageType } from '../types.js';

/** The wire APIs glimpse serializes for; a request goes over exactly one of them. */
export type RouteName = 'anthropic' | 'openai-chat' | 'openai-responses' | 'gemini' | 'bedrock' | 'ollama';

/** Caps an API enforces on one request or message; a request over them is refused whole. */
export interface RouteLimits {
  /** Most images in one message (Bedrock: 20). */
  imagesPerMessage?: number;
  /** Most documents in one message (Bedrock: 5). */
  documentsPerMessage?: number;
  /** Most images in one request, earlier turns included (Anthropic: 100 on 200k-context models). */
  imagesPerRequest?: number;
  /** Once a request holds more than `above` images, no image side may exceed `maxEdge` (Anthropic: 20 → 2000 px). */
  manyImages?: { above: number; maxEdge: number };
}

/** What one wire API takes. Facts of the API itself; what a given model reads is the agent's capability registry. */
export interface Route {
  /** The media preset attachments sent over this route are fitted to. */
  preset: PresetName;
  /** Image types the API takes as they are; anything else is converted first. */
  imageTypes: readonly SendableImageType[];
  /** The API takes PDF documents (from models that read them). */
  pdfInput: boolean;
  /**
   * Media may ride inside a tool result: on every model, on none, or on the models whose lower-cased id matches.
   * Elsewhere the serializers put it beside the results, which every model of the route reads.
   */
  mediaInToolResults: boolean | RegExp;
  limits: RouteLimits;
  /** What a model that no capability rule knows is taken to read here. */
  unknownModel: { imageInput: boolean; pdfInput: boolean };
}

const ALL_IMAGE_TYPES: readonly SendableImageType[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/**
 * Gemini 3 and later (and the `-latest` aliases, which name them today): media inside `functionResponse.parts`,
 * and a replayed function call needs a thought signature. Gemini 1.x–2.x answer such media with a 400.
 */
export const GEMINI_3_MODELS = /gemini-([3-9]|\d\d)|gemini-(pro|flash|flash-lite)-latest/;

/**
 * Every route's facts, from each provider's documentation and SDK types (late 2026):
 * - anthropic: images and PDFs inside `tool_result`; over 20 images a request takes no side above 2000 px, and
 *   100 images at most on 200k-context models (600 on larger ones: 100 is the cap that holds on all).
 * - openai-chat: `tool` messages are text only, so media always travels in a user message.
 * - openai-responses: media inside `function_call_output`.
 * - gemini: no GIF, but HEIC and HEIF; media inside `functionResponse` on Gemini 3 only.
 * - bedrock: per message ≤ 20 images and ≤ 5 documents; media inside `toolResult` for Claude and Nova only.
 * - ollama: no documents at all; PNG and JPEG only; most local models are text-only.
 */
export const ROUTES: Readonly<Record<RouteName, Route>> = {
  anthropic: {
    preset: 'anthropic',
    imageTypes: ALL_IMAGE_TYPES,
    pdfInput: true,
    mediaInToolResults: true,
    limits: { imagesPerRequest: 100, manyImages: { above: 20, maxEdge: 2000 } },
    unknownModel: { imageInput: true, pdfInput: true },
  },
  'openai-chat': {
    preset: 'openai',
    imageTypes: ALL_IMAGE_TYPES,
    pdfInput: true,
    mediaInToolResults: false,
    limits: {},
    unknownModel: { imageInput: true, pdfInput: true },
  },
  'openai-responses': {
    preset: 'openai',
    imageTypes: ALL_IMAGE_TYPES,
    pdfInput: true,
    mediaInToolResults: true,
    limits: {},
    unknownModel: { imageInput: true, pdfInput: true },
  },
  gemini: {
    preset: 'gemini',
    imageTypes: ['image/png', 'image/jpeg', 'image/webp', 'image/heic', 'image/heif'],
    pdfInput: true,
    mediaInToolResults: GEMINI_3_MODELS,
    limits: {},
    unknownModel: { imageInput: true, pdfInput: true },
  },
  bedrock: {
    preset: 'bedrock',
    imageTypes: ALL_IMAGE_TYPES,
    pdfInput: true,
    mediaInToolResults: /claude|nova(?!-micro)/,
    limits: { imagesPerMessage: 20, documentsPerMessage: 5 },
    unknownModel: { imageInput: true, pdfInput: true },
  },
  ollama: {
    preset: 'ollama',
    imageTypes: ['image/png', 'image/jpeg'],
    pdfInput: false,
    mediaInToolResults: true,
    limits: {},
    unknownModel: { imageInput: false, pdfInput: false },
  },
};

export const ROUTE_NAMES = Object.keys(ROUTES) as RouteName[];

export function isRouteName(name: string): name is RouteName {
  return Object.hasOwn(ROUTES, name);
}

/** Whether this route lets this model's tool results carry media (Gemini 3 style, Claude/Nova on Bedrock, …). */
export function routeTakesMediaInToolResults(route: RouteName, model: string | undefined): boolean {
  const rule = ROUTES[route].mediaInToolResults;
  return typeof rule === 'boolean' ? rule : model !== undefined && rule.test(model.toLowerCase());
}
