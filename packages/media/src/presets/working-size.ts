// The size a model works at. A model downscales a larger image on its server (the upload is wasted, and the
// coordinates it answers in are no longer the image's), so the fit aims at that size, not only at the route's
// edge: Anthropic counts 28-px patches, OpenAI's tile models shrink the short side to 768 px, its patch models
// count 32-px patches.
import type { Size } from '../raster/contract.js';

/** At most `max` square patches of `size` px, counted ⌈w/size⌉·⌈h/size⌉ (a partial patch counts whole). */
export interface PatchBudget {
  size: number;
  max: number;
}

/** What a model takes without a second downscale: its longest side, its shortest side and its patch budget. */
export interface WorkingSize {
  maxEdge: number;
  /** OpenAI's tile models: the short side at most 768 px. */
  maxShortSide?: number;
  patches?: PatchBudget;
}

/** Patches of `patch` px that cover `size`. */
export function patchCount(size: Size, patch: number): number {
  return Math.ceil(size.width / patch) * Math.ceil(size.height / patch);
}

/** Whether a model with this working size takes `size` as it is. */
export function fitsWorkingSize(size: Size, working: WorkingSize): boolean {
  return (
    Math.max(size.width, size.height) <= working.maxEdge &&
    (working.maxShortSide === undefined || Math.min(size.width, size.height) <= working.maxShortSide) &&
    (working.patches === undefined || patchCount(size, working.patches.size) <= working.patches.max)
  );
}

/**
 * The largest size of `size`'s shape that fits `working` (never upscaled). Every bound grows with the long
 * side, so the largest long side that fits is found by bisection (≤ 13 steps for 8000 px); each side is
 * rounded from it as a resize rounds. Anthropic's documented examples come out exactly: 4000×4000 → 1092×1092
 * and 2000×4000 → 784×1568 at 1568 px and 1,568 patches.
 */
export function fitWorkingSize(size: Size, working: WorkingSize): Size {
  if (fitsWorkingSize(size, working)) return { width: size.width, height: size.height };
  const long = Math.max(size.width, size.height);
  const at = (edge: number): Size => ({
    width: Math.max(1, Math.round((size.width * edge) / long)),
    height: Math.max(1, Math.round((size.height * edge) / long)),
  });
  let fits = 1;
  let over = Math.min(long, working.maxEdge) + 1;
  while (over - fits > 1) {
    const edge = Math.floor((fits + over) / 2);
    if (fitsWorkingSize(at(edge), working)) fits = edge;
    else over = edge;
  }
  return at(fits);
}
