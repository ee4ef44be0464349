import { GlimpseError, isErrorOf } from '../errors.js';

export const AI_SDK_VERSION_ERROR_CODES = {
  E_AI_SDK_VERSION: 'the wrapped model speaks a specification version glimpse does not read',
} as const;

/**
 * Thrown by `fitMediaMiddleware` for a model of a specification version other than V3 (AI SDK 6) and V4 (AI SDK
 * 7): its prompt's shapes are unknown, and a prompt passed on unread could carry an unfitted original.
 */
export class AiSdkVersionError extends GlimpseError<'E_AI_SDK_VERSION', { specificationVersion: string }> {
  constructor(specificationVersion: unknown, model: string) {
    const version = typeof specificationVersion === 'string' ? specificationVersion : String(specificationVersion);
    const found =
      typeof specificationVersion === 'string'
        ? `is a LanguageModel${version.toUpperCase()} model${version === 'v2' ? ' (AI SDK 5)' : ''}`
        : 'names no specificationVersion';
    super(
      'AiSdkVersionError',
      'E_AI_SDK_VERSION',
      `fitMediaMiddleware reads AI SDK 6 (LanguageModelV3) and AI SDK 7 (LanguageModelV4) prompts, but ${model} ${found}: upgrade to ai@6 or ai@7 and its provider packages.`,
      { specificationVersion: version },
    );
  }
}

export const isAiSdkVersionError = (error: unknown): error is AiSdkVersionError =>
  isErrorOf<AiSdkVersionError>(error, 'AiSdkVersionError', AI_SDK_VERSION_ERROR_CODES);
