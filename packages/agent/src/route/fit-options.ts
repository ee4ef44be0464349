import type { PresetName, WorkingSize } from '@glimpse/media';
import type { ModelCapabilities } from './capabilities.js';
import { resolveRoute, type PresetOptions } from './resolve-route.js';

/** What `process` is told of the model: its preset and, where the registry knows it, the size it works at. */
export interface FitOptions {
  preset: PresetName;
  workingSize?: WorkingSize;
}

/** The fit for a model of known capabilities. */
export function fitOptions(capabilities: Pick<ModelCapabilities, 'preset' | 'workingSize'>): FitOptions {
  return {
    preset: capabilities.preset,
    ...(capabilities.workingSize !== undefined && { workingSize: capabilities.workingSize }),
  };
}

/**
 * The fit those options name: an explicit `preset` alone (the caller chose the limits), else the route's
 * preset and working size, else the registry's for `provider` and `model`, else `portable`.
 */
export function fitOptionsOf(options: PresetOptions): FitOptions {
  if (options.preset !== undefined) return { preset: options.preset };
  if (options.route !== undefined) return fitOptions(options.route.capabilities);
  if (options.provider === undefined) return { preset: 'portable' };
  return fitOptions(
    resolveRoute({ provider: options.provider, ...(options.model !== undefined && { model: options.model }) })
      .capabilities,
  );
}
