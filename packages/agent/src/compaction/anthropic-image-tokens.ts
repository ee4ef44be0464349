import { fitWorkingSize, patchCount, type WorkingSize } from '@glimpse/media';

/**
 * Anthropic bills an image by 28×28-pixel patches, ⌈w/28⌉·⌈h/28⌉ visual tokens, after it scales the
 * image down (aspect kept) until the long edge and the token count fit the tier. Its documented
 * examples: 1000×1000 → 1,296 tokens; the largest 1:1 image sent as-is is 1092×1092, 1:2 is 784×1568.
 * The scaling is media's `fitWorkingSize`, the one the anthropic preset fits to, so what glimpse sends is
 * counted at the size it was sent.
 */
export interface AnthropicTier {
  maxEdge: number;
  maxTokens: number;
}

export const ANTHROPIC_STANDARD: AnthropicTier = { maxEdge: 1568, maxTokens: 1568 };
/** High-resolution models work at up to 2576 px and 4784 tokens. */
export const ANTHROPIC_HIGH_RESOLUTION: AnthropicTier = { maxEdge: 2576, maxTokens: 4784 };

const PATCH = 28;

/** The tier as media's working size (the fit's input). */
export function anthropicTierWorkingSize(tier: AnthropicTier): WorkingSize {
  return { maxEdge: tier.maxEdge, patches: { size: PATCH, max: tier.maxTokens } };
}

/** The size Anthropic's model works at: the image itself, or its server-side downscale. */
export function anthropicWorkingSize(
  width: number,
  height: number,
  tier: AnthropicTier = ANTHROPIC_STANDARD,
): { width: number; height: number } {
  return fitWorkingSize({ width, height }, anthropicTierWorkingSize(tier));
}

export function anthropicImageTokens(width: number, height: number, tier: AnthropicTier = ANTHROPIC_STANDARD): number {
  return patchCount(anthropicWorkingSize(width, height, tier), PATCH);
}
