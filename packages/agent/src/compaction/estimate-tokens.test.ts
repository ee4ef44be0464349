import { describe, expect, it } from 'vitest';
import type { ImagePart, Message } from '../types.js';
import { ANTHROPIC_HIGH_RESOLUTION, anthropicImageTokens, anthropicWorkingSize } from './anthropic-image-tokens.js';
import {
  estimateDocumentTokens,
  estimateImageTokens,
  estimateMessageTokens,
  FIXED_IMAGE_CHARS,
} from './estimate-tokens.js';
import { geminiTileTokens } from './gemini-image-tokens.js';
import { OPENAI_DEFAULT_RULE, openAIImageRule, openAIPatchTokens, openAITileTokens } from './openai-image-tokens.js';

describe('Anthropic image tokens', () => {
  it('matches the documented example: 1000×1000 → 1,296 tokens', () => {
    expect(anthropicImageTokens(1000, 1000)).toBe(1296);
  });

  it('downscales to the documented largest sizes per aspect ratio', () => {
    // Anthropic's table of the largest images sent without resizing: 1:1 1092×1092, 1:2 784×1568.
    expect(anthropicWorkingSize(4000, 4000)).toEqual({ width: 1092, height: 1092 });
    expect(anthropicWorkingSize(2000, 4000)).toEqual({ width: 784, height: 1568 });
    expect(anthropicWorkingSize(1092, 1092)).toEqual({ width: 1092, height: 1092 });
    expect(anthropicWorkingSize(784, 1568)).toEqual({ width: 784, height: 1568 });
    for (const [w, h] of [
      [951, 1268],
      [896, 1344],
      [819, 1456],
    ] as const) {
      expect(anthropicWorkingSize(w, h)).toEqual({ width: w, height: h });
      expect(anthropicImageTokens(w * 3, h * 3)).toBeLessThanOrEqual(1568);
    }
  });

  it('never charges more than the tier cap and counts every started patch', () => {
    expect(anthropicImageTokens(8000, 8000)).toBe(1521);
    expect(anthropicImageTokens(1, 1)).toBe(1);
    expect(anthropicImageTokens(29, 28)).toBe(2);
    expect(anthropicImageTokens(10_000, 10_000, ANTHROPIC_HIGH_RESOLUTION)).toBeLessThanOrEqual(4784);
    expect(anthropicImageTokens(2576, 1288, ANTHROPIC_HIGH_RESOLUTION)).toBeLessThanOrEqual(4784);
  });
});

describe('OpenAI image tokens', () => {
  it("matches the vision guide's tile examples", () => {
    expect(openAITileTokens(1024, 1024, OPENAI_DEFAULT_RULE)).toBe(765);
    expect(openAITileTokens(2048, 4096, OPENAI_DEFAULT_RULE)).toBe(1105);
    expect(openAITileTokens(4096, 8192, OPENAI_DEFAULT_RULE, 'low')).toBe(85);
  });

  it("matches the vision guide's patch examples", () => {
    expect(openAIPatchTokens(1024, 1024, { kind: 'patches', multiplier: 1, patchBudget: 1536 })).toBe(1024);
    expect(openAIPatchTokens(1800, 2400, { kind: 'patches', multiplier: 1, patchBudget: 1536 })).toBe(1452);
  });

  it('picks the rule by model family', () => {
    expect(openAIImageRule('gpt-4o')).toEqual(OPENAI_DEFAULT_RULE);
    expect(openAIImageRule('gpt-5')).toEqual({ kind: 'tiles', base: 70, perTile: 140 });
    expect(openAIImageRule('o3')).toEqual({ kind: 'tiles', base: 75, perTile: 150 });
    expect(openAIImageRule('gpt-4.1-mini')).toEqual({ kind: 'patches', multiplier: 1.62, patchBudget: 1536 });
    expect(estimateImageTokens({ width: 1024, height: 1024 }, { provider: 'openai-chat', model: 'gpt-5' })).toBe(
      70 + 4 * 140,
    );
  });
});

describe('Gemini image tokens', () => {
  it('counts 258 for small images and 258 per 768-px tile otherwise', () => {
    expect(geminiTileTokens(384, 384)).toBe(258);
    expect(geminiTileTokens(385, 100)).toBe(258);
    expect(geminiTileTokens(1000, 1000)).toBe(4 * 258);
    expect(geminiTileTokens(1536, 768)).toBe(2 * 258);
  });

  it('uses media_resolution on Gemini 3', () => {
    expect(
      estimateImageTokens({ width: 4000, height: 3000 }, { provider: 'gemini', model: 'gemini-3-pro-preview' }),
    ).toBe(1120);
    expect(
      estimateImageTokens(
        { width: 4000, height: 3000 },
        { provider: 'gemini', model: 'gemini-3-flash', mediaResolution: 'low' },
      ),
    ).toBe(280);
    expect(estimateImageTokens({ width: 4000, height: 3000 }, { provider: 'gemini', model: 'gemini-2.5-flash' })).toBe(
      Math.ceil(4000 / 768) * Math.ceil(3000 / 768) * 258,
    );
    expect(estimateDocumentTokens({ pages: 3 }, { provider: 'gemini', model: 'gemini-2.5-pro' })).toBe(3 * 258);
    expect(estimateDocumentTokens({ pages: 3 }, { provider: 'gemini', model: 'gemini-3-pro' })).toBe(3 * 560);
  });
});

describe('message estimates', () => {
  const image: ImagePart = {
    type: 'image',
    mediaType: 'image/png',
    data: 'A'.repeat(3_000_000),
    width: 1000,
    height: 1000,
  };

  it('sees pixels, not base64 length: a 3-million-character PNG is 1,296 tokens on Anthropic', () => {
    const message: Message = {
      role: 'toolResult',
      toolCallId: 'c',
      toolName: 'shot',
      isError: false,
      parts: [{ type: 'text', text: 'abcdefgh' }, image],
    };
    expect(estimateMessageTokens(message, { provider: 'anthropic' })).toBe(2 + 1296);
    expect(estimateMessageTokens(message, { provider: 'anthropic', images: 'fixed' })).toBe(2 + FIXED_IMAGE_CHARS / 4);
  });

  it('falls back to the fixed estimate without a pixel size, and to a placeholder on text-only models', () => {
    expect(estimateImageTokens({}, { provider: 'anthropic' })).toBe(1200);
    expect(
      estimateImageTokens({ width: 1000, height: 1000 }, { provider: 'openai-chat', model: 'gpt-3.5-turbo' }),
    ).toBe(30);
    expect(estimateImageTokens({ width: 1000, height: 1000 }, { provider: 'ollama', model: 'llava' })).toBe(768);
  });

  it('counts tool calls by name and arguments', () => {
    expect(
      estimateMessageTokens(
        { role: 'assistant', text: 'abcd', toolCalls: [{ id: '1', name: 'view', arguments: { p: 1 } }] },
        { provider: 'anthropic' },
      ),
    ).toBe(1 + Math.ceil('view{"p":1}'.length / 4));
  });
});
