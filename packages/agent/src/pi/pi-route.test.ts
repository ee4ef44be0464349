import { describe, expect, it } from 'vitest';
import { presetForPiModel, routeOfPiModel } from './pi-route.js';

const model = (api: string, provider: string, id: string) => ({
  api,
  provider,
  id,
  input: ['text' as const, 'image' as const],
});

describe('routeOfPiModel', () => {
  it.each([
    ['anthropic-messages', 'anthropic', 'claude-sonnet-4-6', 'anthropic', 'anthropic'],
    ['openai-completions', 'openai', 'gpt-4.1', 'openai-chat', 'openai'],
    ['openai-responses', 'openai', 'gpt-5.1', 'openai-responses', 'openai'],
    ['google-generative-ai', 'google', 'gemini-3-pro-preview', 'gemini', 'gemini'],
    ['bedrock-converse-stream', 'amazon-bedrock', 'us.anthropic.claude-sonnet-4-6-v1:0', 'bedrock', 'bedrock'],
    ['openai-completions', 'ollama', 'qwen2.5vl:7b', 'ollama', 'ollama'],
    ['mistral-conversations', 'mistral', 'pixtral-large-latest', undefined, 'portable'],
  ])('%s on %s (%s) → %s, preset %s', (api, provider, id, route, preset) => {
    expect(routeOfPiModel(model(api, provider, id))).toBe(route);
    expect(presetForPiModel(model(api, provider, id))).toBe(preset);
  });
});
