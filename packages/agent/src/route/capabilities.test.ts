import { describe, expect, it } from 'vitest';
import { capabilitiesFor, type ModelCapabilities, type ProviderName } from './capabilities.js';

type Row = [
  ProviderName,
  string | undefined,
  Pick<ModelCapabilities, 'imageInput' | 'pdfInput' | 'mediaInToolResults'>,
];
const row = (provider: ProviderName, model: string | undefined, image: boolean, pdf: boolean, inTool: boolean): Row => [
  provider,
  model,
  { imageInput: image, pdfInput: pdf, mediaInToolResults: inTool },
];

describe('capabilitiesFor', () => {
  it.each([
    row('anthropic', 'claude-sonnet-5-5', true, true, true),
    row('anthropic', 'claude-opus-5-5', true, true, true),
    row('anthropic', 'claude-haiku-5-5', true, true, true),
    row('anthropic', 'claude-sonnet-4-5-20250929', true, true, true),
    row('anthropic', 'claude-3-haiku-20240307', true, true, true),
    row('anthropic', 'claude-2.1', false, false, true),
    row('openai-chat', 'gpt-4o-mini', true, true, false),
    row('openai-chat', 'gpt-4.1', true, true, false),
    row('openai-chat', 'gpt-5.1', true, true, false),
    row('openai-chat', 'gpt-6.1-sol', true, true, false),
    row('openai-responses', 'gpt-5.5', true, true, true),
    row('openai-chat', 'gpt-3.5-turbo', false, false, false),
    row('openai-chat', 'gpt-4', false, false, false),
    row('openai-chat', 'gpt-4-turbo', true, true, false),
    row('openai-chat', 'gpt-4-1106-preview', false, false, false),
    row('openai-chat', 'gpt-4-1106-vision-preview', true, true, false),
    row('openai-chat', 'gpt-4-turbo-2024-04-09', true, true, false),
    row('openai-responses', 'o3', true, true, true),
    row('openai-responses', 'o4-mini', true, true, true),
    row('openai-responses', 'o3-mini', false, false, true),
    row('openai-responses', 'o1-mini', false, false, true),
    row('openai-chat', 'openai/gpt-oss-120b', false, false, false),
    row('gemini', 'gemini-3-pro-preview', true, true, true),
    row('gemini', 'gemini-3.8-flash', true, true, true),
    row('gemini', 'gemini-3.1-pro-preview', true, true, true),
    row('gemini', 'gemini-4-carbon', true, true, true),
    row('gemini', 'gemini-flash-latest', true, true, true),
    row('gemini', 'models/gemini-3-flash', true, true, true),
    row('gemini', 'gemini-2.5-flash', true, true, false),
    row('gemini', 'gemini-2.0-flash-001', true, true, false),
    row('gemini', 'gemini-1.5-pro', true, true, false),
    row('bedrock', 'us.anthropic.claude-sonnet-4-5-20250929-v1:0', true, true, true),
    row('bedrock', 'amazon.nova-pro-v1:0', true, true, true),
    row('bedrock', 'us.amazon.nova-2-lite-v1:0', true, true, true),
    row('bedrock', 'amazon.nova-micro-v1:0', false, false, false),
    row('bedrock', 'meta.llama3-2-90b-instruct-v1:0', true, true, false),
    row('bedrock', 'meta.llama3-1-70b-instruct-v1:0', false, false, false),
    row('bedrock', 'us.meta.llama4-scout-17b-instruct-v1:0', true, true, false),
    row('bedrock', 'mistral.mistral-large-2407-v1:0', false, false, false),
    row('ollama', 'llava:13b', true, false, true),
    row('ollama', 'llama3.2-vision:11b', true, false, true),
    row('ollama', 'gemma3:27b', true, false, true),
    row('ollama', 'qwen2.5vl:7b', true, false, true),
    row('ollama', 'qwen2.5-coder:32b', false, false, true),
    row('ollama', 'llama3.1:8b', false, false, true),
    row('ollama', 'deepseek-r1:14b', false, false, true),
  ])('%s %s', (provider, model, expected) => {
    const { imageInput, pdfInput, mediaInToolResults } = capabilitiesFor({ provider, model });
    expect({ imageInput, pdfInput, mediaInToolResults }).toEqual(expected);
  });

  it('gives an unknown model its route default: vision on hosted routes, text-only on Ollama', () => {
    // Where media goes is the route's fact: only Gemini 3 style ids take it inside functionResponse.
    expect(capabilitiesFor({ provider: 'gemini', model: 'my-gateway-alias' })).toEqual({
      imageInput: true,
      pdfInput: true,
      mediaInToolResults: false,
      preset: 'gemini',
    });
    expect(capabilitiesFor({ provider: 'anthropic', model: 'brand-new-model' })).toEqual({
      imageInput: true,
      pdfInput: true,
      mediaInToolResults: true,
      preset: 'anthropic',
    });
    expect(capabilitiesFor({ provider: 'openai-chat' })).toEqual({
      imageInput: true,
      pdfInput: true,
      mediaInToolResults: false,
      preset: 'openai',
    });
    expect(capabilitiesFor({ provider: 'bedrock', model: 'cohere.unknown' })).toEqual({
      imageInput: true,
      pdfInput: true,
      mediaInToolResults: false,
      preset: 'bedrock',
    });
    expect(capabilitiesFor({ provider: 'ollama', model: 'my-finetune' })).toEqual({
      imageInput: false,
      pdfInput: false,
      mediaInToolResults: true,
      preset: 'ollama',
    });
  });

  it('tries app rules first, applies overrides last, and keeps route facts', () => {
    const rules = [{ match: /^acme-vision/, capabilities: { imageInput: true } }];
    expect(capabilitiesFor({ provider: 'ollama', model: 'acme-vision-2', rules }).imageInput).toBe(true);
    expect(
      capabilitiesFor({ provider: 'anthropic', model: 'claude-opus-4-1', overrides: { imageInput: false } }).imageInput,
    ).toBe(false);
    // Ollama has no documents and OpenAI Chat tool messages are text only, whatever a rule says.
    expect(capabilitiesFor({ provider: 'ollama', model: 'x', overrides: { pdfInput: true } }).pdfInput).toBe(false);
    expect(
      capabilitiesFor({ provider: 'openai-chat', model: 'x', overrides: { mediaInToolResults: true } })
        .mediaInToolResults,
    ).toBe(false);
    // Claude on Bedrock is fitted to Bedrock's byte limits, not Anthropic's.
    expect(capabilitiesFor({ provider: 'bedrock', model: 'anthropic.claude-3-5-sonnet' }).preset).toBe('bedrock');
    expect(capabilitiesFor({ provider: 'anthropic', model: 'claude-3-5-sonnet' }).preset).toBe('anthropic');
  });

  it('limits a rule to the routes it names', () => {
    const rules = [{ match: /special/, providers: ['gemini'] as const, capabilities: { mediaInToolResults: false } }];
    expect(capabilitiesFor({ provider: 'gemini', model: 'special-1', rules }).mediaInToolResults).toBe(false);
    expect(capabilitiesFor({ provider: 'openai-responses', model: 'special-1', rules }).mediaInToolResults).toBe(true);
  });
});
