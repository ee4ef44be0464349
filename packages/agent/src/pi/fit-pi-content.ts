import type { PresetName, ProcessOptions } from '@glimpse/media';
import { toolResultFrom } from '../results/tool-result-from.js';
import { toPiContent, type PiContent } from './pi-content.js';
import { presetForPiModel, routeOfPiModel, type PiModelInfo } from './pi-route.js';

export interface FitPiContentOptions {
  /** The pi model the content goes to: its API picks the limits (Anthropic 1568 px, OpenAI 2048 px, …). */
  model?: PiModelInfo;
  /** The `@glimpse/media` limits, over the model's. Default: the model's route preset, else `portable`. */
  preset?: PresetName;
  /** Explicit limits over the preset's. */
  limits?: Omit<ProcessOptions, 'provider'>;
}

/**
 * pi tool-result (or user) content with every image fitted by `@glimpse/media`: upright, within the route's
 * edge and byte limits, in a type the route takes; what cannot be attached becomes a note saying why, and a
 * resized image gets the factor that maps coordinates back. pi's `ImageContent` is read like MCP image content
 * (`data` + `mimeType`), so nothing bypasses the pipeline whatever produced it.
 */
export async function fitPiContent(
  content: readonly PiContent[],
  options: FitPiContentOptions = {},
): Promise<PiContent[]> {
  if (!content.some((item) => item.type === 'image')) return [...content];
  const preset = options.preset ?? (options.model === undefined ? 'portable' : presetForPiModel(options.model));
  // The model's route and id, so its working size (Claude's tiers, OpenAI's tiles or patches) refines the preset.
  const provider =
    options.preset === undefined && options.model !== undefined ? routeOfPiModel(options.model) : undefined;
  const fit = provider === undefined ? { preset } : { provider, model: options.model?.id };
  // Tool text is pi's to truncate (it does, per tool); glimpse only fits the media.
  const fitted = await toolResultFrom({
    toolCallId: '',
    toolName: '',
    output: content,
    ...fit,
    ...(options.limits && { limits: options.limits }),
    truncate: false,
  });
  return toPiContent(fitted.parts, { ...options.limits, preset });
}
