import { ROUTES } from './routes.js';
import type { PresetName, SendableImageType } from '../types.js';
import type { PatchBudget } from './working-size.js';

export type { PresetName } from '../types.js';

/** Limits of one provider route. All byte limits are raw bytes (base64 adds a third on the wire). */
export interface Preset {
  /** Longest side in pixels after processing. */
  maxEdge: number;
  /** Shortest side in pixels after processing, where the route's default model shrinks it (OpenAI's tile models). */
  maxShortSide?: number;
  /** The patch budget of the route's default model (Anthropic: 1,568 patches of 28 px); see working-size.ts. */
  patches?: PatchBudget;
  /** Largest image we hand over, in raw bytes. */
  maxBytes: number;
  /** Image types the provider takes as-is; anything else is converted. */
  accepts: readonly SendableImageType[];
  /** PDFs: largest file and most pages; 0 pages means the provider takes no PDFs. */
  maxPdfBytes: number;
  maxPdfPages: number;
}

/** Image types every hosted route takes (Ollama, local, takes fewer: its preset converts for it). */
const HOSTED_IMAGE_TYPES = ROUTES.anthropic.imageTypes.filter((type) =>
  [ROUTES['openai-chat'], ROUTES['openai-responses'], ROUTES.gemini, ROUTES.bedrock].every((route) =>
    route.imageTypes.includes(type),
  ),
);

/**
 * Figures from the providers' documentation (docs/formats-and-errors.md, \"Provider presets\"). Which image types and whether PDFs
 * come from the route table (`routes.ts`), so each fact is written once:
 * - portable: every side ≤ 2000 px (Anthropic's rule once a request holds > 20 images) and 3.75 MB
 *   (Bedrock's per-image cap), the image types every hosted route takes (no GIF: Gemini refuses it).
 * - anthropic: long edge 1568 px and 1,568 patches of 28 px are its native resolution (standard models;
 *   larger is downscaled server-side, wasted upload, and the coordinates it answers in are no longer the
 *   image's); 3.75 MB raw keeps base64 under the 5 MB that Bedrock and Vertex allow for Claude.
 * - openai: tile models fit 2048×2048, then shrink the short side to 768 px; 20 MB per image; GIF only as
 *   a still. (Patch models' budgets are the agent's, per model: `workingSize` in ProcessOptions.)
 * - gemini: 3072 px keeps detail within its tiling; inline requests are capped at 20 MB, so one
 *   image stays under 7 MB; no GIF, but HEIC and HEIF as they are.
 * - bedrock: 3.75 MB per image, 4.5 MB per document, ≤ 8000 px (2000 px keeps Claude's many-image rule).
 * - ollama: local vision models work at ≤ 1344 px; no PDFs.
 */
export const PRESETS: Readonly<Record<PresetName, Preset>> = {
  portable: {
    maxEdge: 2000,
    maxBytes: 3_750_000,
    accepts: HOSTED_IMAGE_TYPES,
    maxPdfBytes: 4_500_000,
    maxPdfPages: 100,
  },
  anthropic: {
    maxEdge: 1568,
    patches: { size: 28, max: 1568 },
    maxBytes: 3_750_000,
    accepts: ROUTES.anthropic.imageTypes,
    maxPdfBytes: 24_000_000,
    maxPdfPages: 100,
  },
  openai: {
    maxEdge: 2048,
    maxShortSide: 768,
    maxBytes: 20_000_000,
    accepts: ROUTES['openai-responses'].imageTypes,
    maxPdfBytes: 32_000_000,
    maxPdfPages: 100,
  },
  gemini: {
    maxEdge: 3072,
    maxBytes: 7_000_000,
    accepts: ROUTES.gemini.imageTypes,
    maxPdfBytes: 14_000_000,
    maxPdfPages: 1000,
  },
  bedrock: {
    maxEdge: 2000,
    maxBytes: 3_750_000,
    accepts: ROUTES.bedrock.imageTypes,
    maxPdfBytes: 4_500_000,
    maxPdfPages: 100,
  },
  ollama: {
    maxEdge: 1344,
    maxBytes: 3_750_000,
    accepts: ROUTES.ollama.imageTypes,
    maxPdfBytes: ROUTES.ollama.pdfInput ? 4_500_000 : 0,
    maxPdfPages: ROUTES.ollama.pdfInput ? 100 : 0,
  },
};

export const PRESET_NAMES = Object.keys(PRESETS) as PresetName[];

export function isPresetName(name: string): name is PresetName {
  return Object.hasOwn(PRESETS, name);
}
