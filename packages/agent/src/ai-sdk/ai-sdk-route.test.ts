import { describe, expect, it } from 'vitest';
import { aiSdkRoute, routeOfProviderId } from './ai-sdk-route.js';

describe('routeOfProviderId', () => {
  it.each([
    ['anthropic.messages', 'claude-sonnet-4-6', 'anthropic'],
    ['vertex.anthropic.messages', 'claude-sonnet-4-6', 'anthropic'],
    ['openai.chat', 'gpt-4.1', 'openai-chat'],
    ['openai.responses', 'gpt-5.1', 'openai-responses'],
    ['azure.responses', 'gpt-5.1', 'openai-responses'],
    ['google.generative-ai', 'gemini-3-pro-preview', 'gemini'],
    ['google.vertex.chat', 'gemini-2.5-pro', 'gemini'],
    ['amazon-bedrock', 'us.anthropic.claude-sonnet-4-6-v1:0', 'bedrock'],
    ['ollama.responses', 'llava', 'ollama'],
    ['gateway', 'anthropic/claude-sonnet-4-6', 'anthropic'],
    ['gateway', 'openai/gpt-5.1', 'openai-responses'],
    ['groq.chat', 'llama-4-scout', undefined],
  ])('%s (%s) → %s', (providerId, modelId, route) => {
    expect(routeOfProviderId(providerId, modelId)).toBe(route);
  });
});

describe('aiSdkRoute', () => {
  it('lifts tool media where the route or its AI SDK provider cannot carry them', () => {
    const lift = (providerId: string, modelId: string) => aiSdkRoute({ providerId, modelId }).liftToolMedia;
    expect(lift('openai.chat', 'gpt-4.1')).toBe(true);
    expect(lift('ollama.responses', 'qwen2.5vl:7b')).toBe(true);
    expect(lift('google.generative-ai', 'gemini-2.5-flash')).toBe(true);
    expect(lift('amazon-bedrock', 'us.meta.llama3-2-90b-instruct-v1:0')).toBe(true);
    expect(lift('groq.chat', 'llama-4-scout')).toBe(true);
    expect(lift('anthropic.messages', 'claude-sonnet-4-6')).toBe(false);
    expect(lift('openai.responses', 'gpt-5.1')).toBe(false);
    expect(lift('google.generative-ai', 'gemini-3-pro-preview')).toBe(false);
    expect(lift('amazon-bedrock', 'us.anthropic.claude-sonnet-4-6-v1:0')).toBe(false);
  });

  it('fits for an unknown provider with the portable limits, and lets the app name the route', () => {
    expect(aiSdkRoute({ providerId: 'groq.chat', modelId: 'llama-4-scout' })).toMatchObject({
      provider: 'openai-chat',
      preset: 'portable',
    });
    expect(aiSdkRoute({ providerId: 'my-gateway', modelId: 'claude-sonnet-4-6', provider: 'anthropic' })).toMatchObject(
      { provider: 'anthropic', preset: 'anthropic', liftToolMedia: false },
    );
    expect(
      aiSdkRoute({ providerId: 'openai.chat', modelId: 'gpt-4.1', overrides: { imageInput: false } }).capabilities
        .imageInput,
    ).toBe(false);
  });
});
