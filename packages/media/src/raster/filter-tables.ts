// Filter tables for the WASM resize kernel: which source samples feed each output sample, and how much.
// Weights are 2.14 fixed point summing exactly to 1 << 14, so flat areas stay flat after rounding.

export const WEIGHT_ONE = 1 << 14;

/** One axis of a resampling pass: output sample i reads `taps` inputs from `starts[i]`. */
export interface FilterTable {
  /** Inputs per output sample (every window padded to the same count with zero weights). */
  taps: number;
  starts: Int32Array;
  /** `taps` int16 weights per output sample, in order. */
  weights: Int16Array;
}

function sinc(x: number): number {
  if (x === 0) return 1;
  const px = Math.PI * x;
  return Math.sin(px) / px;
}

function lanczos3(x: number): number {
  return x > -3 && x < 3 ? sinc(x) * sinc(x / 3) : 0;
}

/** Averages whole blocks of `factor` inputs (the last block may be partial): the integer pre-shrink. */
export function boxTable(inputSize: number, factor: number, tapMultiple: number): FilterTable {
  const outputSize = Math.ceil(inputSize / factor);
  return buildTable(
    outputSize,
    inputSize,
    tapMultiple,
    (i) => {
      const start = i * factor;
      return { start, end: Math.min(inputSize, start + factor) };
    },
    () => 1,
  );
}

/**
 * Lanczos-3 from `inputSamples` samples spanning `inputExtent` (the source width divided by a box factor,
 * so it can be fractional) to `outputSize`, with pixel centres aligned. When shrinking, the support widens
 * by the scale (anti-aliasing); windows are clipped to the image and renormalised.
 */
export function lanczosTable(
  inputExtent: number,
  inputSamples: number,
  outputSize: number,
  tapMultiple: number,
): FilterTable {
  const scale = inputExtent / outputSize;
  const stretch = Math.max(scale, 1);
  const support = 3 * stretch;
  return buildTable(
    outputSize,
    inputSamples,
    tapMultiple,
    (i) => {
      const centre = (i + 0.5) * scale;
      const start = Math.min(inputSamples - 1, Math.max(0, Math.floor(centre - support + 0.5)));
      const end = Math.max(start + 1, Math.min(inputSamples, Math.floor(centre + support + 0.5)));
      return { start, end };
    },
    (i, j) => lanczos3((j + 0.5 - (i + 0.5) * scale) / stretch),
  );
}

/**
 * Builds the fixed-point table from each output's window [start, end) and a weight function. Every
 * window is padded to one tap count (a multiple of `tapMultiple`: the row kernel reads taps in pairs); a
 * window that would run past the input is shifted left, its shifted-in taps weighing zero. Weights are
 * normalised to WEIGHT_ONE and the rounding remainder goes to the largest one.
 */
function buildTable(
  outputSize: number,
  inputSize: number,
  tapMultiple: number,
  window: (i: number) => { start: number; end: number },
  weight: (i: number, j: number) => number,
): FilterTable {
  const windowStarts = new Int32Array(outputSize);
  const windowEnds = new Int32Array(outputSize);
  let longest = 1;
  for (let i = 0; i < outputSize; i++) {
    const { start, end } = window(i);
    windowStarts[i] = start;
    windowEnds[i] = end;
    longest = Math.max(longest, end - start);
  }
  const taps = Math.ceil(longest / tapMultiple) * tapMultiple;
  const starts = new Int32Array(outputSize);
  const weights = new Int16Array(outputSize * taps);
  const real = new Float64Array(taps);
  for (let i = 0; i < outputSize; i++) {
    const from = windowStarts[i] ?? 0;
    const count = (windowEnds[i] ?? 0) - from;
    const start = Math.max(0, Math.min(from, inputSize - taps));
    starts[i] = start;
    let sum = 0;
    for (let k = 0; k < count; k++) sum += real[k] = weight(i, from + k);
    const base = i * taps + (from - start);
    let total = 0;
    let largest = base;
    for (let k = 0; k < count; k++) {
      const fixed = Math.round(((real[k] ?? 0) / sum) * WEIGHT_ONE);
      weights[base + k] = fixed;
      total += fixed;
      if (fixed > (weights[largest] ?? 0)) largest = base + k;
    }
    weights[largest] = (weights[largest] ?? 0) + WEIGHT_ONE - total;
  }
  return { taps, starts, weights };
}
