// Where a format can go as it is. Refusals name the presets (and so the providers) that take it, read from
// the route table, so a message never claims more or less than the table says.
import { PRESET_NAMES, PRESETS, type PresetName } from './presets.js';
import type { MediaType } from '../types.js';

/** The presets that take `type` as it is (within their limits): PDFs where the preset takes any, images it accepts. */
export function presetsTaking(type: MediaType): PresetName[] {
  return PRESET_NAMES.filter((name) =>
    type === 'application/pdf'
      ? PRESETS[name].maxPdfPages > 0
      : PRESETS[name].accepts.some((accepted) => accepted === type),
  );
}

/**
 * One sentence saying who takes `type` as it is: "No provider takes AVIF as it is." or "The gemini preset
 * takes HEIC as it is, within its limits (preset: 'gemini')." `label` names the format ("AVIF").
 */
export function takersSentence(type: MediaType, label: string): string {
  const takers = presetsTaking(type);
  if (takers.length === 0) return `No provider takes ${label} as it is.`;
  const one = takers.length === 1;
  return `The ${takers.join(', ')} preset${one ? '' : 's'} ${one ? 'takes' : 'take'} ${label} as it is, within ${one ? 'its' : 'their'} limits (preset: '${takers[0]}').`;
}
