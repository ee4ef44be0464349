import { isGemini3 } from '../route/wire-facts.js';

/**
 * Gemini's image-token rules:
 * - Gemini 2.x and older: 258 tokens when both sides are ≤ 384 px, else 258 per 768×768 tile.
 * - Gemini 3: a fixed budget per image set by `media_resolution` (low 280, medium 560, high 1120);
 *   images default to high, PDF pages to medium.
 */
export type GeminiMediaResolution = 'low' | 'medium' | 'high';

export const GEMINI_MEDIA_RESOLUTION_TOKENS: Readonly<Record<GeminiMediaResolution, number>> = {
  low: 280,
  medium: 560,
  high: 1120,
};

export const GEMINI_TILE_TOKENS = 258;

export function geminiTileTokens(width: number, height: number): number {
  if (width <= 384 && height <= 384) return GEMINI_TILE_TOKENS;
  return Math.ceil(width / 768) * Math.ceil(height / 768) * GEMINI_TILE_TOKENS;
}

/** Gemini 3 and later price media by `media_resolution` instead of by tiles. */
export function usesMediaResolution(model: string | undefined): boolean {
  return isGemini3(model);
}
