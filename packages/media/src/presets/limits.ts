import { MediaError } from '../errors.js';
import { isPresetName, PRESETS, type Preset } from './presets.js';
import type { ProbeResult, ProcessOptions } from '../types.js';

/** Decompression-bomb guard defaults: 100 MP, and no side beyond what PNG/WebP/JPEG headers allow sanely. */
export const DEFAULT_MAX_INPUT_PIXELS = 100_000_000;
export const MAX_SIDE = 65_535;

export interface Limits extends Preset {
  maxInputPixels: number;
  /** No budget when undefined. */
  timeoutMs: number | undefined;
  /** Files sent as they are keep their Exif, XMP, IPTC, text and comments (ProcessOptions.keepMetadata). */
  keepMetadata: boolean;
}

/** The preset's limits with explicit options on top; bad values are a typed error, not a surprise later. */
export function resolveLimits(options: ProcessOptions): Limits {
  if (options.preset !== undefined && options.provider !== undefined && options.preset !== options.provider) {
    throw new MediaError(
      'E_INVALID_OPTIONS',
      `Both preset ${JSON.stringify(options.preset)} and its old name provider ${JSON.stringify(options.provider)} are set. Pass preset only.`,
    );
  }
  const name = options.preset ?? options.provider ?? 'portable';
  if (!isPresetName(name)) {
    throw new MediaError(
      'E_INVALID_OPTIONS',
      `Unknown preset ${JSON.stringify(name)}. Use one of: ${Object.keys(PRESETS).join(', ')}.`,
    );
  }
  const preset = PRESETS[name];
  return {
    ...preset,
    maxEdge: positive('maxEdge', options.maxEdge) ?? preset.maxEdge,
    maxBytes: positive('maxBytes', options.maxBytes) ?? preset.maxBytes,
    // An explicit maxBytes bounds every output, PDFs included, unless maxPdfBytes says otherwise.
    maxPdfBytes:
      positive('maxPdfBytes', options.maxPdfBytes) ??
      Math.min(preset.maxPdfBytes, positive('maxBytes', options.maxBytes) ?? Infinity),
    maxPdfPages: positive('maxPdfPages', options.maxPdfPages) ?? preset.maxPdfPages,
    maxInputPixels: positive('maxInputPixels', options.maxInputPixels) ?? DEFAULT_MAX_INPUT_PIXELS,
    timeoutMs: positive('timeoutMs', options.timeoutMs),
    keepMetadata: flag('keepMetadata', options.keepMetadata),
  };
}

/** `value` when it is a boolean, false when absent; anything else is E_INVALID_OPTIONS naming `name`. */
function flag(name: string, value: boolean | undefined): boolean {
  if (value === undefined) return false;
  if (typeof value !== 'boolean') {
    throw new MediaError('E_INVALID_OPTIONS', `Expected true or false for ${name} but received ${String(value)}.`, {
      option: name,
    });
  }
  return value;
}

/** `value` when it is a positive integer, undefined when absent; anything else is E_INVALID_OPTIONS naming `name`. */
export function positive(name: string, value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new MediaError(
      'E_INVALID_OPTIONS',
      `Expected a positive integer for ${name} but received ${String(value)}.`,
      { option: name },
    );
  }
  return value;
}

function megapixels(pixels: number): string {
  return pixels >= 100_000 ? `${(pixels / 1e6).toFixed(1)} MP` : `${pixels} pixels`;
}

/** Refuses decompression bombs from header facts alone, before any pixel buffer exists. */
export function assertPixelBudget(info: ProbeResult, limits: Limits): { width: number; height: number } {
  const { width, height } = info;
  if (!width || !height) {
    throw new MediaError(
      'E_CORRUPT',
      `The ${info.mediaType} header gives no image size. The file is damaged: re-export it.`,
    );
  }
  if (width > MAX_SIDE || height > MAX_SIDE || width * height > limits.maxInputPixels) {
    throw new MediaError(
      'E_TOO_MANY_PIXELS',
      `The image declares ${width}×${height} pixels (${megapixels(width * height)}); the limit is ${megapixels(limits.maxInputPixels)} and ${MAX_SIDE} px per side. Crop or downscale it first, or raise maxInputPixels (--max-input-pixels) if it is trusted.`,
      { width, height, maxInputPixels: limits.maxInputPixels },
    );
  }
  return { width, height };
}
