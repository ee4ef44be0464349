import { describe, expect, it } from 'vitest';
import { openAIImageRule } from '../compaction/openai-image-tokens.js';
import { capabilitiesFor } from './capabilities.js';
import {
  ANTHROPIC_HIGH_RESOLUTION_SIZE,
  ANTHROPIC_STANDARD_SIZE,
  OPENAI_HIGH_SIZE,
  OPENAI_ORIGINAL_SIZE,
  OPENAI_TILE_SIZE,
  GEMINI_3_HIGH_SIZE,
} from './working-sizes.js';

describe('the working size of each model', () => {
  it.each([
    ['anthropic', 'claude-sonnet-4-5-20250929', ANTHROPIC_STANDARD_SIZE],
    ['anthropic', 'claude-haiku-4-5', ANTHROPIC_STANDARD_SIZE],
    ['anthropic', 'claude-opus-4-7', ANTHROPIC_HIGH_RESOLUTION_SIZE],
    ['anthropic', 'claude-opus-5-5', ANTHROPIC_HIGH_RESOLUTION_SIZE],
    ['bedrock', 'us.anthropic.claude-opus-4-7-v1:0', ANTHROPIC_HIGH_RESOLUTION_SIZE],
    ['bedrock', 'us.anthropic.claude-sonnet-4-5-20250929-v1:0', ANTHROPIC_STANDARD_SIZE],
    ['openai-chat', 'gpt-4o', OPENAI_TILE_SIZE],
    ['openai-responses', 'gpt-5', OPENAI_TILE_SIZE],
    ['openai-responses', 'o3', OPENAI_TILE_SIZE],
    ['openai-responses', 'gpt-5.5', OPENAI_HIGH_SIZE],
    ['openai-responses', 'gpt-5.4-mini', OPENAI_HIGH_SIZE],
    ['openai-chat', 'gpt-6.1-sol', OPENAI_HIGH_SIZE],
    ['openai-responses', 'gpt-4.1-mini', { maxEdge: 2048, patches: { size: 32, max: 1536 } }],
    ['openai-responses', 'o4-mini', { maxEdge: 2048, patches: { size: 32, max: 1536 } }],
    // Gemini 3: media_resolution high, 1,120 tokens taken as 48-px patches; older Gemini keeps the preset's 3072 px.
    ['gemini', 'gemini-3.1-pro-preview', GEMINI_3_HIGH_SIZE],
    ['gemini', 'models/gemini-3-flash', { maxEdge: 3072, patches: { size: 48, max: 1120 } }],
    ['gemini', 'gemini-2.5-flash', undefined],
  ] as const)('%s %s', (provider, model, workingSize) => {
    expect(capabilitiesFor({ provider, model }).workingSize).toEqual(workingSize);
  });

  it('fits OpenAI images for detail "high"; "original" only where the model takes it', () => {
    expect(capabilitiesFor({ provider: 'openai-responses', model: 'gpt-5.5' }).imageDetail).toBe('high');
    expect(
      capabilitiesFor({ provider: 'openai-responses', model: 'gpt-5.5', overrides: { imageDetail: 'original' } }),
    ).toMatchObject({ imageDetail: 'original', workingSize: OPENAI_ORIGINAL_SIZE });
    // gpt-5.4-mini does not take original: it stays at high, fitted to 2,500 patches.
    expect(
      capabilitiesFor({ provider: 'openai-responses', model: 'gpt-5.4-mini', overrides: { imageDetail: 'original' } }),
    ).toMatchObject({ imageDetail: 'high', workingSize: OPENAI_HIGH_SIZE });
    expect(capabilitiesFor({ provider: 'openai-chat', model: 'some-gateway-model' }).imageDetail).toBeUndefined();
  });

  it('leaves a preset the app chose as it is', () => {
    const capabilities = capabilitiesFor({
      provider: 'anthropic',
      model: 'claude-opus-4-7',
      overrides: { preset: 'portable' },
    });
    expect(capabilities).toMatchObject({ preset: 'portable' });
    expect(capabilities.workingSize).toBeUndefined();
  });

  it('agrees with the token estimates: a patch model is counted by the patches it is fitted to', () => {
    for (const model of [
      'gpt-4o',
      'gpt-4.1',
      'gpt-5',
      'gpt-5.1',
      'o3',
      'gpt-4.1-mini',
      'o4-mini',
      'gpt-5.5',
      'gpt-5.4-mini',
      'gpt-6.1-sol',
    ]) {
      const { workingSize } = capabilitiesFor({ provider: 'openai-responses', model });
      const rule = openAIImageRule(model);
      expect(rule.kind, model).toBe(workingSize?.patches === undefined ? 'tiles' : 'patches');
      if (rule.kind === 'patches') expect(rule.patchBudget, model).toBe(workingSize?.patches?.max);
    }
  });
});
