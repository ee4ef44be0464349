/**
 * OpenAI's two image-token rules (vision guide):
 * - tile models: fit in 2048×2048, then shrink the shortest side to 768, count 512-px tiles;
 *   cost = base + perTile·tiles, and `detail: "low"` costs the base alone.
 * - patch models: 32×32-px patches; over the patch budget the image is scaled down so a whole number
 *   of patches spans its width or height; the count is capped at the budget and multiplied per model.
 */
export interface OpenAITileRule {
  kind: 'tiles';
  base: number;
  perTile: number;
}

export interface OpenAIPatchRule {
  kind: 'patches';
  multiplier: number;
  patchBudget: number;
}

export type OpenAIImageRule = OpenAITileRule | OpenAIPatchRule;

export function openAITileTokens(
  width: number,
  height: number,
  rule: OpenAITileRule,
  detail: 'high' | 'low' = 'high',
): number {
  if (detail === 'low') return rule.base;
  let w = width;
  let h = height;
  const fit = Math.min(1, 2048 / Math.max(w, h));
  w *= fit;
  h *= fit;
  const shortest = Math.min(w, h);
  if (shortest > 768) {
    w *= 768 / shortest;
    h *= 768 / shortest;
  }
  const tiles = Math.ceil(Math.floor(w) / 512) * Math.ceil(Math.floor(h) / 512);
  return rule.base + rule.perTile * tiles;
}

export function openAIPatchTokens(width: number, height: number, rule: OpenAIPatchRule): number {
  const PATCH = 32;
  let w = width;
  let h = height;
  if (Math.ceil(w / PATCH) * Math.ceil(h / PATCH) > rule.patchBudget) {
    const shrink = Math.sqrt((PATCH * PATCH * rule.patchBudget) / (w * h));
    // Shrink a little more so a whole number of patches spans the limiting side.
    const wholePatches = Math.min(
      Math.floor((w * shrink) / PATCH) / ((w * shrink) / PATCH),
      Math.floor((h * shrink) / PATCH) / ((h * shrink) / PATCH),
    );
    w *= shrink * wholePatches;
    h *= shrink * wholePatches;
  }
  const patches = Math.min(rule.patchBudget, Math.ceil(Math.floor(w) / PATCH) * Math.ceil(Math.floor(h) / PATCH));
  return Math.ceil(patches * rule.multiplier);
}

export function openAIImageTokens(
  width: number,
  height: number,
  rule: OpenAIImageRule,
  detail: 'high' | 'low' = 'high',
): number {
  return rule.kind === 'tiles' ? openAITileTokens(width, height, rule, detail) : openAIPatchTokens(width, height, rule);
}

// Model families, most specific first (the id is lower-cased before matching).
const OPENAI_RULES: readonly [RegExp, OpenAIImageRule][] = [
  // gpt-5.4 and later, mini and nano too: 2,500 patches at high, 1.2 tokens each (measured, OpenAI forum,
  // 2026-03); the same models the registry fits for (route/working-sizes.ts).
  [/gpt-5\.([4-9]|\d\d)|gpt-([6-9]|\d\d)/, { kind: 'patches', multiplier: 1.2, patchBudget: 2500 }],
  // gpt-5.2 and gpt-5.3: patches at 1.2 (the same measurement); the 1,536 budget of the earlier patch models.
  [/gpt-5\.[23](?![.\d])(?!\S*-(mini|nano))/, { kind: 'patches', multiplier: 1.2, patchBudget: 1536 }],
  [/gpt-5[.\d]*-mini|gpt-4\.1-mini/, { kind: 'patches', multiplier: 1.62, patchBudget: 1536 }],
  [/gpt-5[.\d]*-nano|gpt-4\.1-nano/, { kind: 'patches', multiplier: 2.46, patchBudget: 1536 }],
  [/(^|[/.])o4-mini/, { kind: 'patches', multiplier: 1.72, patchBudget: 1536 }],
  [/gpt-4o-mini/, { kind: 'tiles', base: 2833, perTile: 5667 }],
  [/(^|[/.])o[13](-|$)/, { kind: 'tiles', base: 75, perTile: 150 }],
  [/gpt-5/, { kind: 'tiles', base: 70, perTile: 140 }],
];

/** gpt-4o, gpt-4.1, gpt-4.5 and unknown models: the long-standing 85 + 170 per tile. */
export const OPENAI_DEFAULT_RULE: OpenAITileRule = { kind: 'tiles', base: 85, perTile: 170 };

export function openAIImageRule(model: string | undefined): OpenAIImageRule {
  const id = model?.toLowerCase() ?? '';
  return OPENAI_RULES.find(([pattern]) => pattern.test(id))?.[1] ?? OPENAI_DEFAULT_RULE;
}
