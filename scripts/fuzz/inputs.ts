// One fuzz input: a mutated seed and the options it runs under.
import type { ProcessOptions } from '@glimpse/media';
import { mutate, type Random } from './mutate.js';
import type { FuzzFormat } from './seeds.js';

/** Option sets the inputs run under: defaults, each preset's passthrough rules, and tight limits. */
const OPTION_CHOICES: readonly ProcessOptions[] = [
  {},
  {},
  { provider: 'anthropic' },
  { provider: 'openai' },
  { provider: 'gemini' },
  { maxEdge: 16 },
  { maxBytes: 1500 },
  { maxInputPixels: 2000 },
  { provider: 'ollama', maxEdge: 100 },
];

export function fuzzInput(
  format: FuzzFormat,
  seeds: readonly Uint8Array[],
  random: Random,
): { bytes: Uint8Array; options: ProcessOptions } {
  const bytes = mutate(format, seeds, random);
  return { bytes, options: random.pick(OPTION_CHOICES) };
}
