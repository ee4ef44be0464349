// Run-time proof that each serializer emits the provider's documented request: every body (plus the model) is
// checked against a strict schema written from the API reference (__wire__/request-schemas.ts), for the models
// whose shapes differ; the same goes for what `glimpse prepare` prints. A wrong field fails, as the mutations show.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { z } from 'zod';
import type { ProviderName } from '../route/capabilities.js';
import type { ImagePart, Message } from '../types.js';
import { main } from '../cli/main.js';
import { CONVERSATION, TOOLS } from './__golden__/conversation.js';
import {
  anthropicRequest,
  bedrockRequest,
  geminiRequest,
  ollamaRequest,
  openAIChatRequest,
  openAIResponsesRequest,
} from './__wire__/request-schemas.js';
import { serialize } from './serialize.js';
import { requestJson } from './request-json.js';
import type { SerializeInput } from './types.js';

const SYSTEM = 'You review files.';

/** The HTTP body each API receives for a serialized body and model (Gemini and Bedrock take the model in the URL). */
function wireBody(provider: ProviderName, body: object, model: string): Record<string, unknown> {
  const json = JSON.parse(requestJson(body)) as Record<string, unknown>;
  switch (provider) {
    case 'anthropic':
      return { model, max_tokens: 1024, ...json };
    case 'gemini':
    case 'bedrock':
      return json;
    case 'openai-chat':
    case 'openai-responses':
    case 'ollama':
      return { model, ...json };
    default: {
      const exhaustive: never = provider;
      return exhaustive;
    }
  }
}

function schemaFor(provider: ProviderName, model: string): z.ZodType {
  switch (provider) {
    case 'anthropic':
      return anthropicRequest;
    case 'openai-chat':
      return openAIChatRequest;
    case 'openai-responses':
      return openAIResponsesRequest;
    case 'gemini': {
      const gemini3 = /gemini-3/.test(model);
      return geminiRequest({ mediaInFunctionResponse: gemini3, gemini3 });
    }
    case 'bedrock':
      return bedrockRequest;
    case 'ollama':
      return ollamaRequest;
    default: {
      const exhaustive: never = provider;
      return exhaustive;
    }
  }
}

/** The issues a schema finds, one line each, so a failure says what was wrong. */
function problems(provider: ProviderName, model: string, body: Record<string, unknown>): string[] {
  const result = schemaFor(provider, model).safeParse(body);
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

const CASES: [ProviderName, string, Partial<SerializeInput>?][] = [
  ['anthropic', 'claude-sonnet-5-5'],
  ['anthropic', 'claude-2.1'],
  ['openai-chat', 'gpt-5.5'],
  ['openai-chat', 'gpt-3.5-turbo'],
  ['openai-responses', 'gpt-5.5'],
  ['openai-responses', 'gpt-5.5', { liftToolMedia: true }],
  ['gemini', 'gemini-3.1-pro-preview'],
  ['gemini', 'gemini-3.1-pro-preview', { capabilities: { mediaInToolResults: false } }],
  ['gemini', 'gemini-2.5-flash'],
  ['bedrock', 'global.anthropic.claude-sonnet-5-5'],
  ['bedrock', 'us.meta.llama4-maverick-17b-instruct-v1:0'],
  ['ollama', 'qwen2.5vl:7b'],
  ['ollama', 'llama3.1:8b'],
];

describe('each serialized request satisfies its provider’s documented schema', () => {
  it.each(CASES)('%s %s %j', (provider, model, extra = {}) => {
    const { body } = serialize(provider, { system: SYSTEM, messages: CONVERSATION, tools: TOOLS, model, ...extra });
    expect(problems(provider, model, wireBody(provider, body, model))).toEqual([]);
  });
});

describe('the schemas catch a serializer that emits a wrong field', () => {
  const valid = (provider: ProviderName, model: string) =>
    wireBody(
      provider,
      serialize(provider, { system: SYSTEM, messages: CONVERSATION, tools: TOOLS, model }).body,
      model,
    );
  const edit = (body: Record<string, unknown>, change: (json: string) => string) =>
    JSON.parse(change(JSON.stringify(body))) as Record<string, unknown>;

  it.each([
    [
      'anthropic',
      'claude-sonnet-5-5',
      (json: string) => json.replace('"media_type":"image/png"', '"mediaType":"image/png"'),
    ],
    ['anthropic', 'claude-sonnet-5-5', (json: string) => JSON.stringify({ ...JSON.parse(json), tools: undefined })],
    [
      'anthropic',
      'claude-sonnet-5-5',
      (json: string) => json.replace('"tool_use_id":"call_a"', '"tool_call_id":"call_a"'),
    ],
    [
      'openai-chat',
      'gpt-5.5',
      (json: string) =>
        json.replace(
          '"content":"chart.jpg',
          '"content":[{"type":"image_url","image_url":{"url":"data:image/png;base64,AAAA"}}],"x":"',
        ),
    ],
    ['openai-chat', 'gpt-5.5', (json: string) => json.replace('data:image/png;base64,', '')],
    ['openai-responses', 'gpt-5.5', (json: string) => json.replace('"detail":"high"', '"details":"high"')],
    [
      'gemini',
      'gemini-3.1-pro-preview',
      (json: string) => json.replace(',"thoughtSignature":"skip_thought_signature_validator"', ''),
    ],
    [
      'gemini',
      'gemini-3.1-pro-preview',
      (json: string) => json.replace(/"inlineData":\{"mimeType"/, '"inline_data":{"mimeType"'),
    ],
    [
      'bedrock',
      'global.anthropic.claude-sonnet-5-5',
      (json: string) => json.replace('"name":"Q3 report-v2"', '"name":"Q3 report.v2.pdf"'),
    ],
    [
      'bedrock',
      'global.anthropic.claude-sonnet-5-5',
      (json: string) => json.replace('"status":"error"', '"status":"failed"'),
    ],
    ['ollama', 'qwen2.5vl:7b', (json: string) => json.replace(/"images":\["/, '"images":["data:image/png;base64,')],
    ['ollama', 'qwen2.5vl:7b', (json: string) => json.replace('"tool_name":"view_file"', '"name":"view_file"')],
  ] as const)('%s %s mutation %#', (provider, model, change) => {
    const body = valid(provider, model);
    const broken = edit(body, change);
    expect(broken, 'the mutation changed nothing').not.toEqual(body);
    expect(problems(provider, model, broken)).not.toEqual([]);
  });

  it('older Gemini models refuse media inside functionResponse', () => {
    const { body } = serialize('gemini', { messages: CONVERSATION, model: 'gemini-3.1-pro-preview' });
    expect(problems('gemini', 'gemini-2.5-flash', wireBody('gemini', body, 'gemini-2.5-flash'))).toContain(
      ': this model refuses media inside functionResponse',
    );
  });
});

describe('glimpse prepare prints, for every provider, a body that plus the model is a valid request', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'glimpse-wire-'));
    await sharp({ create: { width: 2600, height: 1300, channels: 3, background: { r: 20, g: 90, b: 200 } } })
      .png()
      .toFile(join(dir, 'screen.png'));
    const doc = await PDFDocument.create();
    doc.addPage([300, 400]);
    await writeFile(join(dir, 'notes.v1.pdf'), await doc.save());
  });
  afterEach(() => vi.restoreAllMocks());

  const MODELS: Record<ProviderName, string> = {
    anthropic: 'claude-sonnet-5-5',
    'openai-chat': 'gpt-5.5',
    'openai-responses': 'gpt-5.5',
    gemini: 'gemini-3.1-pro-preview',
    bedrock: 'global.anthropic.claude-sonnet-5-5',
    ollama: 'qwen2.5vl:7b',
  };

  it.each(Object.entries(MODELS) as [ProviderName, string][])('%s', async (provider, model) => {
    let stdout = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      stdout += String(chunk);
      return true;
    });
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const code = await main([
      'prepare',
      join(dir, 'screen.png'),
      join(dir, 'notes.v1.pdf'),
      '--provider',
      provider,
      '--model',
      model,
      '--system',
      SYSTEM,
    ]);
    vi.restoreAllMocks();
    expect(code).toBe(0);
    const { provider: printed, ...body } = JSON.parse(stdout) as Record<string, unknown>;
    expect(printed).toBe(provider);
    expect(problems(provider, model, wireBody(provider, body, model))).toEqual([]);
  });
});

describe('a HEIC photo (passed through for Gemini) in a tool result', () => {
  const photo: ImagePart = { type: 'image', mediaType: 'image/heic', data: btoa('heic-photo'), width: 64, height: 48 };
  const messages: Message[] = [
    { role: 'user', parts: [{ type: 'text', text: 'What is in the photo?' }] },
    {
      role: 'assistant',
      text: '',
      toolCalls: [{ id: 'call_p', name: 'view_file', arguments: { path: 'IMG_1.heic' } }],
    },
    {
      role: 'toolResult',
      toolCallId: 'call_p',
      toolName: 'view_file',
      parts: [{ type: 'text', text: 'IMG_1.heic' }, photo],
      isError: false,
    },
  ];

  it.each(CASES.map(([provider, model]) => [provider, model] as const))('%s %s: a valid request', (provider, model) => {
    const { body } = serialize(provider, { messages, tools: TOOLS, model });
    expect(problems(provider, model, wireBody(provider, body, model))).toEqual([]);
  });

  it('Gemini 3 sends it after the function responses (they take PNG, JPEG, WebP and PDF only); others omit it', () => {
    const { body } = serialize('gemini', { messages, tools: TOOLS, model: 'gemini-3.1-pro-preview' });
    const turn = (body as { contents: { parts: Record<string, unknown>[] }[] }).contents[2]!;
    expect(turn.parts.map((part) => Object.keys(part)[0])).toEqual(['functionResponse', 'text', 'inlineData']);
    // A part of the turn, so it carries Gemini 3's per-part level: 64×48 px is 2 patches of 48 px, low.
    expect(turn.parts[2]).toEqual({
      inlineData: { mimeType: 'image/heic', data: photo.data },
      mediaResolution: { level: 'MEDIA_RESOLUTION_LOW' },
    });
    expect(JSON.stringify(turn.parts[0])).not.toContain('inlineData');
    for (const provider of ['anthropic', 'bedrock', 'openai-responses'] as const) {
      expect(JSON.stringify(serialize(provider, { messages, tools: TOOLS }).body), provider).not.toContain(photo.data);
    }
  });

  it('the schema refuses HEIC inside a Gemini 3 function response', () => {
    const body = {
      contents: [
        { role: 'user', parts: [{ text: 'Look.' }] },
        {
          role: 'model',
          parts: [
            {
              functionCall: { id: 'c', name: 'view_file', args: {} },
              thoughtSignature: 'skip_thought_signature_validator',
            },
          ],
        },
        {
          role: 'user',
          parts: [
            {
              functionResponse: {
                id: 'c',
                name: 'view_file',
                response: { output: 'x' },
                parts: [{ inlineData: { mimeType: 'image/heic', data: photo.data } }],
              },
            },
          ],
        },
      ],
    };
    expect(problems('gemini', 'gemini-3.1-pro-preview', body)).not.toEqual([]);
    const asJpeg = JSON.parse(JSON.stringify(body).replace('image/heic', 'image/jpeg')) as Record<string, unknown>;
    expect(problems('gemini', 'gemini-3.1-pro-preview', asJpeg)).toEqual([]);
  });
});
