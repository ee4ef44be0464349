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
  const windows: Window[] = [];
  for (let i = 0; i < outputSize; i++) {
    const start = i * factor;
    windows.push({ start, weights: new Array<number>(Math.min(factor, inputSize - start)).fill(1) });
  }
  return tableFromWindows(windows, inputSize, tapMultiple);
}

/**
 * Lanczos-3 from `inputSamples` samples spanning `inputExtent` (the source width divided by a box factor,
 * so it can be fractional) to `outputSize`, with pixel centres aligned. When shrinking, the support widens
 * by the scale (anti-aliasing); windows are clipped to the image and renormalised.
 */
export function lanczosTable(inputExtent: number, inputSamples: number, outputSize: number, tapMultiple: number): FilterTable {
  const scale = inputExtent / outputSize;
  const stretch = Math.max(scale, 1);
  const support = 3 * stretch;
  const windows: Window[] = [];
  for (let i = 0; i < outputSize; i++) {
    const centre = (i + 0.5) * scale;
    const start = Math.min(inputSamples - 1, Math.max(0, Math.floor(centre - support + 0.5)));
    const end = Math.max(start + 1, Math.min(inputSamples, Math.floor(centre + support + 0.5)));
    const weights: number[] = [];
    for (let j = start; j < end; j++) weights.push(lanczos3((j + 0.5 - centre) / stretch));
    windows.push({ start, weights });
  }
  return tableFromWindows(windows, inputSamples, tapMultiple);
}

interface Window {
  start: number;
  weights: number[];
}

/**
 * Pads every window to one tap count (a multiple of `tapMultiple`: the row kernel reads taps in pairs).
 * A window that would run past the input is shifted left, its shifted-in taps weighing zero.
 */
function tableFromWindows(windows: Window[], inputSize: number, tapMultiple: number): FilterTable {
  const longest = windows.reduce((most, w) => Math.max(most, w.weights.length), 1);
  const taps = Math.ceil(longest / tapMultiple) * tapMultiple;
  const starts = new Int32Array(windows.length);
  const weights = new Int16Array(windows.length * taps);
  windows.forEach((window, i) => {
    const start = Math.max(0, Math.min(window.start, inputSize - taps));
    starts[i] = start;
    weights.set(toFixedPoint(window.weights), i * taps + (window.start - start));
  });
  return { taps, starts, weights };
}

/** Normalises to a sum of WEIGHT_ONE, then puts the rounding remainder on the largest weight. */
function toFixedPoint(weights: number[]): Int16Array {
  const sum = weights.reduce((a, b) => a + b, 0);
  const fixed = Int16Array.from(weights, (w) => Math.round((w / sum) * WEIGHT_ONE));
  let largest = 0;
  let total = 0;
  fixed.forEach((w, j) => {
    total += w;
    if (w > (fixed[largest] ?? 0)) largest = j;
  });
  fixed[largest] = (fixed[largest] ?? 0) + WEIGHT_ONE - total;
  return fixed;
}
