// Provider file references on the wire: the example conversation with every medium uploaded, serialized for each
// route, must satisfy the provider's strict schema, name each upload where the API takes a reference and send the
// rest inline; a reference to another provider's store, or on a route without references, changes nothing.
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { ProviderName } from '../route/capabilities.js';
import type { FileReference, Message } from '../types.js';
import { CONVERSATION, TOOLS } from './__golden__/conversation.js';
import {
  anthropicRequest,
  geminiRequest,
  openAIChatRequest,
  openAIResponsesRequest,
} from './__wire__/request-schemas.js';
import { requestJson } from './request-json.js';
import { serialize } from './serialize.js';

/** Every medium of the conversation with an upload on `provider`'s store, named after its base64. */
function uploaded(provider: FileReference['provider']): Message[] {
  return CONVERSATION.map((message) =>
    message.role === 'assistant'
      ? message
      : {
          ...message,
          parts: message.parts.map((part) =>
            part.type === 'text'
              ? part
              : {
                  ...part,
                  reference: {
                    provider,
                    id: `${provider}-${part.data}`,
                    mimeType: part.mediaType,
                    ...(provider === 'gemini' && { uri: `https://files.example/${part.data}` }),
                  },
                },
          ),
        },
  );
}

const MEDIA = CONVERSATION.flatMap((message) =>
  message.role === 'assistant' ? [] : message.parts.flatMap((part) => (part.type === 'text' ? [] : [part])),
);

const CASES: { provider: ProviderName; model: string; store: FileReference['provider']; schema: z.ZodType }[] = [
  { provider: 'anthropic', model: 'claude-sonnet-5-5', store: 'anthropic', schema: anthropicRequest },
  { provider: 'openai-responses', model: 'gpt-5.5', store: 'openai', schema: openAIResponsesRequest },
  { provider: 'openai-chat', model: 'gpt-5.5', store: 'openai', schema: openAIChatRequest },
  {
    provider: 'gemini',
    model: 'gemini-3.1-pro-preview',
    store: 'gemini',
    schema: geminiRequest({ mediaInFunctionResponse: true, gemini3: true }),
  },
  {
    provider: 'gemini',
    model: 'gemini-2.5-flash',
    store: 'gemini',
    schema: geminiRequest({ mediaInFunctionResponse: false, gemini3: false }),
  },
];

const wire = (provider: ProviderName, messages: Message[], model: string) => {
  const json = requestJson(serialize(provider, { messages, tools: TOOLS, model }).body);
  const body = JSON.parse(json) as Record<string, unknown>;
  return {
    json,
    body: provider === 'gemini' ? body : { model, ...(provider === 'anthropic' && { max_tokens: 64 }), ...body },
  };
};

describe('file references on the wire', () => {
  it.each(CASES)(
    '$provider $model: uploads named, the rest inline, within the schema',
    ({ provider, model, store, schema }) => {
      const { json, body } = wire(provider, uploaded(store), model);
      const parsed = schema.safeParse(body);
      expect(
        parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`),
      ).toEqual([]);
      for (const part of MEDIA) {
        // Chat Completions names only PDFs by file_id; its images go inline as data URLs.
        const byReference = provider !== 'openai-chat' || part.type === 'document';
        const reference =
          provider === 'gemini'
            ? `"fileUri":"https://files.example/${part.data}"`
            : `"file_id":"${store}-${part.data}"`;
        expect(json.includes(reference), `${part.mediaType} by reference`).toBe(byReference);
        // Inline: the base64 as a JSON string of its own, or a data URL's tail.
        const inline = json.includes(`"${part.data}"`) || json.includes(`base64,${part.data}"`);
        expect(inline, `${part.mediaType} inline`).toBe(!byReference);
      }
    },
  );

  it.each([
    ['anthropic', 'claude-sonnet-5-5', 'openai'],
    ['openai-responses', 'gpt-5.5', 'anthropic'],
    ['gemini', 'gemini-3.1-pro-preview', 'openai'],
    ['bedrock', 'global.anthropic.claude-sonnet-5-5', 'anthropic'],
    ['ollama', 'qwen2.5vl:7b', 'openai'],
  ] as const)('%s: a reference to %s’s store, or none taken, leaves the body as it was', (provider, model, store) => {
    expect(wire(provider, uploaded(store), model).json).toBe(wire(provider, CONVERSATION, model).json);
  });
});
