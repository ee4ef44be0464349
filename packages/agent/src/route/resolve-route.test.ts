import { ROUTES } from '@glimpse/media';
import { describe, expect, it } from 'vitest';
import { serialize } from '../providers/serialize.js';
import type { Message } from '../types.js';
import { capabilitiesFor } from './capabilities.js';
import { presetOf, resolveRoute, routeFor } from './resolve-route.js';
import { GEMINI_3_MODELS, takesMediaInToolResults, WIRE_FACTS } from './wire-facts.js';

describe('resolveRoute', () => {
  it("holds the model's capabilities and the wire API's media facts, decided once", () => {
    const route = resolveRoute({ provider: 'bedrock', model: 'us.meta.llama3-2-90b-instruct-v1:0' });
    expect(route).toEqual({
      provider: 'bedrock',
      model: 'us.meta.llama3-2-90b-instruct-v1:0',
      capabilities: capabilitiesFor({ provider: 'bedrock', model: 'us.meta.llama3-2-90b-instruct-v1:0' }),
      preset: 'bedrock',
      media: { imageTypes: ROUTES.bedrock.imageTypes, pdfInput: true, limits: ROUTES.bedrock.limits },
    });
    expect(route.capabilities).toMatchObject({ imageInput: true, mediaInToolResults: false });
  });

  it('takes the wire facts from the agent: media inside tool results, what an unknown model reads', () => {
    expect(takesMediaInToolResults('gemini', 'gemini-3.1-pro-preview')).toBe(true);
    expect(takesMediaInToolResults('gemini', 'gemini-2.5-flash')).toBe(false);
    expect(takesMediaInToolResults('openai-chat', 'gpt-5.5')).toBe(false);
    expect(takesMediaInToolResults('gemini', 'models/gemini-4-carbon')).toBe(true);
    expect(takesMediaInToolResults('gemini', undefined)).toBe(false);
    expect(takesMediaInToolResults('bedrock', 'global.anthropic.claude-sonnet-5-5')).toBe(true);
    expect(takesMediaInToolResults('bedrock', 'amazon.nova-micro-v1:0')).toBe(false);
    expect(takesMediaInToolResults('bedrock', 'meta.llama4-maverick-17b-instruct-v1:0')).toBe(false);
    expect(GEMINI_3_MODELS.test('gemini-2.0-flash')).toBe(false);
    expect(resolveRoute({ provider: 'ollama', model: 'some-local-model' }).capabilities).toMatchObject(
      WIRE_FACTS.ollama.unknownModel,
    );
    expect(resolveRoute({ provider: 'anthropic', model: 'claude-future-9' }).capabilities).toMatchObject(
      WIRE_FACTS.anthropic.unknownModel,
    );
  });
});

describe('routeFor', () => {
  it('uses a route resolved before, and resolves the model otherwise', () => {
    const textOnly = resolveRoute({
      provider: 'anthropic',
      model: 'claude-sonnet-5-5',
      overrides: { imageInput: false },
    });
    expect(routeFor('anthropic', { route: textOnly, model: 'ignored' })).toBe(textOnly);
    expect(routeFor('anthropic', { model: 'claude-sonnet-5-5', capabilities: { imageInput: false } })).toEqual(
      textOnly,
    );
  });

  it('refuses a route resolved for another wire API', () => {
    const gemini = resolveRoute({ provider: 'gemini', model: 'gemini-3.1-pro-preview' });
    expect(() => routeFor('anthropic', { route: gemini })).toThrowError(
      new TypeError('The route was resolved for gemini, not anthropic: resolve it for anthropic.'),
    );
  });

  it('makes serialize read the route it is given: a text-only route gets placeholders', () => {
    const messages: Message[] = [
      { role: 'user', parts: [{ type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=', width: 1, height: 1 }] },
    ];
    const textOnly = resolveRoute({
      provider: 'anthropic',
      model: 'claude-sonnet-5-5',
      overrides: { imageInput: false },
    });
    const { warnings } = serialize('anthropic', { messages, route: textOnly });
    expect(warnings.map((warning) => warning.type === 'media-omitted' && warning.reason)).toEqual(['no-image-input']);
    expect(serialize('anthropic', { messages, model: 'claude-sonnet-5-5' }).warnings).toEqual([]);
  });
});

describe('presetOf', () => {
  it('takes the preset, else the route, else the registry for the provider, else portable', () => {
    const route = resolveRoute({ provider: 'gemini' });
    expect(presetOf({ preset: 'ollama', route, provider: 'anthropic' })).toBe('ollama');
    expect(presetOf({ route, provider: 'anthropic' })).toBe('gemini');
    expect(presetOf({ provider: 'openai-chat', model: 'gpt-5.5' })).toBe('openai');
    expect(presetOf({})).toBe('portable');
  });
});
