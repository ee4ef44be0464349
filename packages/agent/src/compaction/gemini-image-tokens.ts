import type { WorkingSize } from '@glimpse/media';
import { isGemini3 } from '../route/wire-facts.js';

/**
 * Gemini's image-token rules (ai.google.dev/gemini-api/docs/media-resolution, "Token counts", late 2026):
 * - Gemini 2.x and older: 258 tokens when both sides are ≤ 384 px, else 258 per 768×768 tile.
 * - Gemini 3 and later: a fixed budget per image set by `media_resolution`: low 280, medium 560, high 1120
 *   (the image default), ultra_high 2240 (set per part only); a PDF page costs the same per page, medium by
 *   default. The level may be set per part (`Part.mediaResolution.level`, Gemini 3 only, in the API's v1beta
 *   that the SDK calls; earlier only v1alpha), or for a whole request in `generationConfig`.
 *
 * Google does not say at what pixel size a level reads an image. glimpse takes a token for 48×48 px: Gemma
 * 4's vision encoder (the open sibling, with the same 70–1120 token budgets) pools 16-px patches 3×3, 280
 * tokens for 645,120 px; and Gemini 2's 258 tokens per 768² tile are the same density (2,286 px² a token).
 * So a level's working size is its token count in 48-px patches.
 */
export type GeminiMediaResolution = 'low' | 'medium' | 'high' | 'ultra_high';

export const GEMINI_MEDIA_RESOLUTION_TOKENS: Readonly<Record<GeminiMediaResolution, number>> = {
  low: 280,
  medium: 560,
  high: 1120,
  ultra_high: 2240,
};

/** The levels glimpse chooses from, cheapest first: ultra_high only when a caller asks for it (twice high's cost). */
const CHOSEN_LEVELS = ['low', 'medium', 'high', 'ultra_high'] as const satisfies readonly GeminiMediaResolution[];

/** The highest level glimpse may choose for an image: `high` unless a caller asks for `ultra_high`. */
export type GeminiMaxMediaResolution = 'high' | 'ultra_high';

/** The pixels one Gemini 3 token is taken to cover, on each side. */
export const GEMINI_TOKEN_PX = 48;

/** The size a Gemini 3 model reads at `level`: its tokens in 48-px patches, within the gemini preset's 3072 px. */
export function geminiLevelWorkingSize(level: GeminiMediaResolution): WorkingSize {
  return { maxEdge: 3072, patches: { size: GEMINI_TOKEN_PX, max: GEMINI_MEDIA_RESOLUTION_TOKENS[level] } };
}

/**
 * The level an image of this size is sent at on Gemini 3: the cheapest whose working size holds it whole
 * (a 600×400 capture reads the same at low, for 280 tokens instead of 1,120), `max` for anything larger (the
 * fit made it no larger than `max`'s working size) or of unknown size. `max` is high unless the route asks for
 * ultra_high (`capabilities.maxMediaResolution`).
 */
export function geminiImageLevel(
  width: number | undefined,
  height: number | undefined,
  max: GeminiMaxMediaResolution = 'high',
): GeminiMediaResolution {
  if (width === undefined || height === undefined) return max;
  const patches = Math.ceil(width / GEMINI_TOKEN_PX) * Math.ceil(height / GEMINI_TOKEN_PX);
  const allowed = CHOSEN_LEVELS.slice(0, CHOSEN_LEVELS.indexOf(max) + 1);
  return allowed.find((level) => patches <= GEMINI_MEDIA_RESOLUTION_TOKENS[level]) ?? max;
}

/** The wire value of a level (`PartMediaResolutionLevel` in @google/genai). */
export const GEMINI_LEVEL_ON_WIRE = {
  low: 'MEDIA_RESOLUTION_LOW',
  medium: 'MEDIA_RESOLUTION_MEDIUM',
  high: 'MEDIA_RESOLUTION_HIGH',
  ultra_high: 'MEDIA_RESOLUTION_ULTRA_HIGH',
} as const satisfies Record<GeminiMediaResolution, string>;

export const GEMINI_TILE_TOKENS = 258;

export function geminiTileTokens(width: number, height: number): number {
  if (width <= 384 && height <= 384) return GEMINI_TILE_TOKENS;
  return Math.ceil(width / 768) * Math.ceil(height / 768) * GEMINI_TILE_TOKENS;
}

/** Gemini 3 and later price media by `media_resolution` instead of by tiles. */
export function usesMediaResolution(model: string | undefined): boolean {
  return isGemini3(model);
}
