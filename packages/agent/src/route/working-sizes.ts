import type { WorkingSize } from '@glimpse/media';
import { geminiLevelWorkingSize } from '../compaction/gemini-image-tokens.js';
import { GEMINI_3_MODELS } from './wire-facts.js';

/**
 * The size each model works at, where the registry knows it: an image larger than that is downscaled again on
 * the provider's server (the upload is wasted, and the coordinates the model answers in are no longer the
 * image's), so `view_file` and `toolResultFrom` fit to it (media's `workingSize` option). From the providers'
 * vision guides (late 2026, ../shared/reference/providers.md):
 * - Claude: 1568 px and 1,568 patches of 28 px; the high-resolution models (Claude Opus 4.7 and every model
 *   after it) 2576 px and 4,784 patches.
 * - OpenAI tile models (gpt-4o, gpt-4.1, gpt-5, gpt-5.1, o1, o3): fit 2048×2048, then the short side to 768 px.
 * - OpenAI patch models: 32-px patches, 1,536 at `high` (gpt-4.1-mini/nano, o4-mini, gpt-5-mini/nano, gpt-5.2,
 *   gpt-5.3); 2,500 at `high` for gpt-5.4 and later, and 10,000 (up to 6000 px) at `original` on the full
 *   models of that era (their mini and nano do not take it).
 * - Gemini 3 and later: the `media_resolution` level the Gemini serializer sets per image, at most high (1,120
 *   tokens, taken as 48-px patches: see compaction/gemini-image-tokens.ts); a smaller image goes at the
 *   cheapest level that holds it, so the fit to high's size is what the model reads at every level.
 */

/** OpenAI's `detail` an image was fitted for; the OpenAI serializers put it on the wire. */
export type ImageDetail = 'high' | 'original';

export interface WorkingSizeRule {
  /** Tested against the whole lower-cased model id, as capability rules are. */
  match: RegExp;
  workingSize: WorkingSize;
  /** The `detail` that working size is for (OpenAI). */
  imageDetail?: ImageDetail;
  /** The working size at `detail: "original"`, on models that take it. */
  original?: WorkingSize;
}

export const ANTHROPIC_STANDARD_SIZE: WorkingSize = { maxEdge: 1568, patches: { size: 28, max: 1568 } };
export const ANTHROPIC_HIGH_RESOLUTION_SIZE: WorkingSize = { maxEdge: 2576, patches: { size: 28, max: 4784 } };
export const OPENAI_TILE_SIZE: WorkingSize = { maxEdge: 2048, maxShortSide: 768 };
const OPENAI_PATCH_1536: WorkingSize = { maxEdge: 2048, patches: { size: 32, max: 1536 } };
export const OPENAI_HIGH_SIZE: WorkingSize = { maxEdge: 2048, patches: { size: 32, max: 2500 } };
export const OPENAI_ORIGINAL_SIZE: WorkingSize = { maxEdge: 6000, patches: { size: 32, max: 10_000 } };
/** Gemini 3 at `media_resolution: high`: 1,120 tokens of 48 px, within 3072 px. */
export const GEMINI_3_HIGH_SIZE: WorkingSize = geminiLevelWorkingSize('high');
/** Gemini 3 at `media_resolution: ultra_high` (2,240 tokens), only when a caller asks for it (`maxMediaResolution`). */
export const GEMINI_3_ULTRA_HIGH_SIZE: WorkingSize = geminiLevelWorkingSize('ultra_high');

const OPENAI_NEW = /gpt-5\.([4-9]|\d\d)|gpt-([6-9]|\d\d)/;
const SMALL = /-(mini|nano)/;

// Order matters: the first rule that matches wins.
export const WORKING_SIZE_RULES: readonly WorkingSizeRule[] = [
  { match: /claude-(opus|sonnet)-4-[7-9]|claude-[a-z]+-([5-9]|\d\d)/, workingSize: ANTHROPIC_HIGH_RESOLUTION_SIZE },
  { match: /claude/, workingSize: ANTHROPIC_STANDARD_SIZE },
  {
    match: new RegExp(`(${OPENAI_NEW.source})(?!\\S*${SMALL.source})`),
    workingSize: OPENAI_HIGH_SIZE,
    imageDetail: 'high',
    original: OPENAI_ORIGINAL_SIZE,
  },
  { match: OPENAI_NEW, workingSize: OPENAI_HIGH_SIZE, imageDetail: 'high' },
  {
    match: /gpt-5[.\d]*-(mini|nano)|gpt-5\.[23]|gpt-4\.1-(mini|nano)|(^|[/.])o4-mini/,
    workingSize: OPENAI_PATCH_1536,
    imageDetail: 'high',
  },
  { match: /gpt-4o|gpt-4\.[15]|gpt-5|chatgpt|(^|[/.])o[13](-|$)/, workingSize: OPENAI_TILE_SIZE, imageDetail: 'high' },
  { match: GEMINI_3_MODELS, workingSize: GEMINI_3_HIGH_SIZE },
];

/** The working size of `model` and the `detail` it is for; `detail: "original"` only where the model takes it. */
export function workingSizeFor(
  model: string | undefined,
  detail: ImageDetail | undefined,
): { workingSize?: WorkingSize; imageDetail?: ImageDetail } {
  if (model === undefined) return {};
  const id = model.toLowerCase();
  const rule = WORKING_SIZE_RULES.find((candidate) => candidate.match.test(id));
  if (rule === undefined) return {};
  if (detail === 'original' && rule.original) return { workingSize: rule.original, imageDetail: 'original' };
  return { workingSize: rule.workingSize, ...(rule.imageDetail !== undefined && { imageDetail: rule.imageDetail }) };
}
