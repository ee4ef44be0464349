import type { PresetName, SendableImageType } from '../types.js';

/** The wire APIs glimpse serializes for; a request goes over exactly one of them. */
export type RouteName = 'anthropic' | 'openai-chat' | 'openai-responses' | 'gemini' | 'bedrock' | 'ollama';

/** Caps an API enforces on one request or message; a request over them is refused whole. */
export interface RouteLimits {
  /**
   * Most bytes of one request as it goes over the wire: the JSON body, base64 media included (Anthropic: 32 MB,
   * Gemini: 20 MB of inline data). Unset where the API documents none (Bedrock, Ollama).
   */
  requestBytes?: number;
  /** Most images in one message (Bedrock: 20). */
  imagesPerMessage?: number;
  /** Most documents in one message (Bedrock: 5). */
  documentsPerMessage?: number;
  /** Most images in one request, earlier turns included (Anthropic: 100 on 200k-context models). */
  imagesPerRequest?: number;
  /** Once a request holds more than `above` images, no image side may exceed `maxEdge` (Anthropic: 20 → 2000 px). */
  manyImages?: { above: number; maxEdge: number };
}

/**
 * What one wire API takes, as far as media are concerned. Facts of the wire format and its models (which models
 * take media inside a tool result, what an unknown model reads) are the agent's (`WIRE_FACTS` in @glimpse/agent).
 */
export interface Route {
  /** The media preset attachments sent over this route are fitted to. */
  preset: PresetName;
  /** Image types the API takes as they are; anything else is converted first. */
  imageTypes: readonly SendableImageType[];
  /** The API takes PDF documents (from models that read them). */
  pdfInput: boolean;
  limits: RouteLimits;
}

const ALL_IMAGE_TYPES: readonly SendableImageType[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/**
 * Every route's media facts, from each provider's documentation and SDK types (late 2026). Byte caps are written
 * in decimal megabytes, the smaller reading of the vendors' "MB":
 * - anthropic: images and PDFs; over 20 images a request takes no side above 2000 px, and 100 images at most on
 *   200k-context models (600 on larger ones: 100 is the cap that holds on all). 32 MB per Messages request, refused
 *   with 413 `request_too_large` before it reaches the API (docs.claude.com/en/api/errors, "Request size limits").
 * - openai-chat, openai-responses: images (GIF as a still) and PDFs; up to 500 images and 50 MB of image bytes
 *   per request (platform.openai.com/docs/guides/images, "Image input requirements"): the 50 MB is held
 *   for the whole body, which is stricter.
 * - gemini: no GIF, but HEIC and HEIF; inline data only while "the total request size is under 20 MB", prompts
 *   and base64 included (ai.google.dev/gemini-api/docs/vision, "Passing images to Gemini"); 3,000 images per request.
 * - bedrock: per message ≤ 20 images and ≤ 5 documents (Converse `Message.content`); no request cap is documented.
 * - ollama: no documents at all; PNG and JPEG only; a local server documents no caps.
 */
export const ROUTES: Readonly<Record<RouteName, Route>> = {
  anthropic: {
    preset: 'anthropic',
    imageTypes: ALL_IMAGE_TYPES,
    pdfInput: true,
    limits: { requestBytes: 32_000_000, imagesPerRequest: 100, manyImages: { above: 20, maxEdge: 2000 } },
  },
  'openai-chat': {
    preset: 'openai',
    imageTypes: ALL_IMAGE_TYPES,
    pdfInput: true,
    limits: { requestBytes: 50_000_000, imagesPerRequest: 500 },
  },
  'openai-responses': {
    preset: 'openai',
    imageTypes: ALL_IMAGE_TYPES,
    pdfInput: true,
    limits: { requestBytes: 50_000_000, imagesPerRequest: 500 },
  },
  gemini: {
    preset: 'gemini',
    imageTypes: ['image/png', 'image/jpeg', 'image/webp', 'image/heic', 'image/heif'],
    pdfInput: true,
    limits: { requestBytes: 20_000_000, imagesPerRequest: 3000 },
  },
  bedrock: {
    preset: 'bedrock',
    imageTypes: ALL_IMAGE_TYPES,
    pdfInput: true,
    limits: { imagesPerMessage: 20, documentsPerMessage: 5 },
  },
  ollama: {
    preset: 'ollama',
    imageTypes: ['image/png', 'image/jpeg'],
    pdfInput: false,
    limits: {},
  },
};

export const ROUTE_NAMES = Object.keys(ROUTES) as RouteName[];

export function isRouteName(name: string): name is RouteName {
  return Object.hasOwn(ROUTES, name);
}
