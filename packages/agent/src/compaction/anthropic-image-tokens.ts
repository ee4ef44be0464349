/**
 * Anthropic bills an image by 28×28-pixel patches, ⌈w/28⌉·⌈h/28⌉ visual tokens, after it scales the
 * image down (aspect kept) until the long edge and the token count fit the tier. Its documented
 * examples: 1000×1000 → 1,296 tokens; the largest 1:1 image sent as-is is 1092×1092, 1:2 is 784×1568.
 */
export interface AnthropicTier {
  maxEdge: number;
  maxTokens: number;
}

export const ANTHROPIC_STANDARD: AnthropicTier = { maxEdge: 1568, maxTokens: 1568 };
/** High-resolution models work at up to 2576 px and 4784 tokens. */
export const ANTHROPIC_HIGH_RESOLUTION: AnthropicTier = { maxEdge: 2576, maxTokens: 4784 };

const PATCH = 28;

const patches = (width: number, height: number) => Math.ceil(width / PATCH) * Math.ceil(height / PATCH);

/** The size Anthropic's model works at: the image itself, or its server-side downscale. */
export function anthropicWorkingSize(
  width: number,
  height: number,
  tier: AnthropicTier = ANTHROPIC_STANDARD,
): { width: number; height: number } {
  const long = Math.max(width, height);
  const scale = Math.min(1, tier.maxEdge / long, Math.sqrt((tier.maxTokens * PATCH * PATCH) / (width * height)));
  if (scale === 1 && patches(width, height) <= tier.maxTokens) return { width, height };
  // The area bound leaves patch rounding over the cap at times; step the long edge down until it fits.
  for (let edge = Math.floor(long * scale); edge > 1; edge--) {
    const candidate = {
      width: Math.max(1, Math.floor((width * edge) / long)),
      height: Math.max(1, Math.floor((height * edge) / long)),
    };
    if (patches(candidate.width, candidate.height) <= tier.maxTokens) return candidate;
  }
  return { width: 1, height: 1 };
}

export function anthropicImageTokens(width: number, height: number, tier: AnthropicTier = ANTHROPIC_STANDARD): number {
  const size = anthropicWorkingSize(width, height, tier);
  return patches(size.width, size.height);
}
