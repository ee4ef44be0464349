import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { failsWith } from '../../../../test/support/typed-errors.js';
import { AiSdkVersionError, isAiSdkVersionError } from './ai-sdk-version-error.js';
import { fitMediaMiddleware } from './fit-media-middleware.js';

const params: LanguageModelV4CallOptions = { prompt: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] };

describe('fitMediaMiddleware and specification versions', () => {
  it('declares the version it is typed for, and fits by the one the model declares', async () => {
    expect(fitMediaMiddleware().specificationVersion).toBe('v4');
    expect(fitMediaMiddleware({ aiSdk: 6 }).specificationVersion).toBe('v3');
    const model = { specificationVersion: 'v3', provider: 'anthropic.messages', modelId: 'claude-sonnet-4-6' };
    const out = await fitMediaMiddleware({ aiSdk: 6 }).transformParams({ params, model });
    expect(out).toEqual(params);
  });

  it.each([
    ['v2', 'is a LanguageModelV2 model (AI SDK 5)'],
    [undefined, 'names no specificationVersion'],
  ])('refuses a model of version %s, naming it', async (version, words) => {
    const model = { specificationVersion: version, provider: 'legacy', modelId: 'm' };
    const transform = fitMediaMiddleware().transformParams!;
    const error = await failsWith(
      () => transform({ type: 'generate', params, model: model as never }),
      AiSdkVersionError,
      'E_AI_SDK_VERSION',
    );
    expect(error.message).toContain(`legacy m ${words}`);
    expect(isAiSdkVersionError(error)).toBe(true);
  });
});
