// Proof against the real SDKs at run time: each client takes the serializer's body as its own request and
// sends exactly that body on the wire. A capturing fetch stands in for the network.
import Anthropic from '@anthropic-ai/sdk';
import { BedrockRuntimeClient, ConverseCommand } from '@aws-sdk/client-bedrock-runtime';
import { GoogleGenAI } from '@google/genai';
import { Ollama } from 'ollama';
import OpenAI from 'openai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CONVERSATION, TOOLS } from './__golden__/conversation.js';
import { serializeAnthropic } from './anthropic.js';
import { serializeBedrock, type BedrockRequestBody } from './bedrock.js';
import { bedrockRequestFromJson } from './bedrock-request-json.js';
import { serializeGemini } from './gemini.js';
import { toGeminiParameters } from './gemini-parameters.js';
import { serializeOllama } from './ollama.js';
import { serializeOpenAIChat } from './openai-chat.js';
import { serializeOpenAIResponses } from './openai-responses.js';
import { requestJson } from './request-json.js';

class Captured extends Error {
  constructor(readonly body: Record<string, unknown>) {
    super('captured');
  }
}

/** A fetch that records the JSON body and stops the request there. */
async function captureFetch(_url: unknown, init?: { body?: unknown }): Promise<Response> {
  throw new Captured(JSON.parse(String(init?.body)));
}

async function captured(send: () => Promise<unknown>): Promise<Record<string, unknown>> {
  try {
    await send();
  } catch (error) {
    // SDKs wrap fetch failures; the capture is the error or its cause.
    for (let e: unknown = error; e instanceof Error; e = e.cause) if (e instanceof Captured) return e.body;
    throw error;
  }
  throw new Error('the request was not sent');
}

const plain = (value: unknown) => JSON.parse(JSON.stringify(value));

afterEach(() => vi.unstubAllGlobals());

const SYSTEM = 'You are a careful reviewer.';
const input = (model: string) => ({ system: SYSTEM, messages: CONVERSATION, tools: TOOLS, model });

// Each call spreads the serializer's body into the SDK's own request type: the typecheck proves body + model is
// that type, and the capture proves the SDK sends every key of the body unchanged.
describe('the SDKs send the serialized body unchanged', () => {
  it('Anthropic', async () => {
    const { body } = serializeAnthropic(input('claude-sonnet-4-6'));
    const client = new Anthropic({ apiKey: 'test', fetch: captureFetch, maxRetries: 0 });
    const sent = await captured(() => client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 100, ...body }));
    expect(sent).toEqual({ model: 'claude-sonnet-4-6', max_tokens: 100, ...plain(body) });
    expect(sent.system).toBe(SYSTEM);
  });

  it('OpenAI Chat and Responses', async () => {
    const client = new OpenAI({ apiKey: 'test', fetch: captureFetch, maxRetries: 0 });
    const chat = serializeOpenAIChat(input('gpt-4.1')).body;
    expect(await captured(() => client.chat.completions.create({ model: 'gpt-4.1', ...chat }))).toEqual({ model: 'gpt-4.1', ...plain(chat) });
    expect(chat.messages[0]).toEqual({ role: 'system', content: SYSTEM });
    const responses = serializeOpenAIResponses(input('gpt-5')).body;
    expect(await captured(() => client.responses.create({ model: 'gpt-5', ...responses }))).toEqual({ model: 'gpt-5', ...plain(responses) });
    expect(responses.instructions).toBe(SYSTEM);
  });

  it('Gemini, through toGeminiParameters (the SDK drops a top-level systemInstruction and tools)', async () => {
    vi.stubGlobal('fetch', captureFetch);
    const { body } = serializeGemini(input('gemini-3-pro-preview'));
    const client = new GoogleGenAI({ apiKey: 'test' });
    const sent = await captured(() => client.models.generateContent(toGeminiParameters(body, 'gemini-3-pro-preview')));
    // The REST body the SDK builds is the serializer's body: what glimpse prepare prints for gemini.
    expect(sent).toEqual({ ...plain(body), generationConfig: {} });
    expect(sent.systemInstruction).toEqual({ parts: [{ text: SYSTEM }] });
  });

  it('Bedrock: the printed JSON goes back through bedrockRequestFromJson, and is what the SDK sends', async () => {
    const { body } = serializeBedrock(input('us.anthropic.claude-sonnet-4-6'));
    const printed = requestJson({ provider: 'bedrock', ...body });
    let sent: Record<string, unknown> | undefined;
    const client = new BedrockRuntimeClient({
      region: 'us-east-1',
      credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
      maxAttempts: 1,
      requestHandler: {
        async handle(request: { body?: unknown }) {
          sent = JSON.parse(String(request.body));
          throw new Captured(sent ?? {});
        },
      },
    });
    const send = (messages: BedrockRequestBody) => client.send(new ConverseCommand({ modelId: 'us.anthropic.claude-sonnet-4-6', ...messages }));
    await expect(send(bedrockRequestFromJson(printed))).rejects.toThrow('captured');
    const { provider: _, ...printedBody } = JSON.parse(printed);
    expect(sent).toEqual(printedBody);
    // The trap the helper exists for: the strings handed over as they are get encoded a second time.
    const raw = JSON.parse(printed) as BedrockRequestBody;
    await expect(send(raw)).rejects.toThrow('captured');
    expect(JSON.stringify(sent)).not.toEqual(JSON.stringify(printedBody));
  });

  it('Bedrock: bedrockRequestFromJson keeps the keys a user adds to the printed JSON', () => {
    const { body } = serializeBedrock(input('us.anthropic.claude-sonnet-4-6'));
    const edited = { ...JSON.parse(requestJson({ provider: 'bedrock', ...body })), modelId: 'm', inferenceConfig: { maxTokens: 512 } };
    expect(bedrockRequestFromJson(edited)).toMatchObject({ modelId: 'm', inferenceConfig: { maxTokens: 512 } });
  });

  it('Ollama', async () => {
    const { body } = serializeOllama(input('qwen2.5vl:7b'));
    const client = new Ollama({ host: 'http://127.0.0.1:9', fetch: captureFetch });
    expect(await captured(() => client.chat({ model: 'qwen2.5vl:7b', ...body, stream: false }))).toEqual({ model: 'qwen2.5vl:7b', ...plain(body), stream: false });
  });
});

describe('bedrockRequestFromJson', () => {
  it('decodes media bytes at the top level and inside tool results, and keeps everything else', () => {
    const { body } = serializeBedrock(input('us.anthropic.claude-sonnet-4-6'));
    expect(bedrockRequestFromJson(requestJson(body))).toEqual(body);
    expect(bedrockRequestFromJson(JSON.parse(requestJson({ provider: 'bedrock', ...body })))).toEqual(body);
  });

  it('refuses what is not a Bedrock request in JSON form, saying where', () => {
    expect(() => bedrockRequestFromJson({ provider: 'anthropic', messages: [] })).toThrow(/"provider" is "anthropic"/);
    expect(() => bedrockRequestFromJson({ messages: [{ role: 'user', content: [{ image: { format: 'png', source: { bytes: '%%' } } }] }] })).toThrow(
      /messages\[0\]\.content\[0\]\.image\.source\.bytes is not valid base64/,
    );
    expect(() => bedrockRequestFromJson({ messages: [{ role: 'user', content: [{ image: { format: 'png', source: { bytes: 7 } } }] }] })).toThrow(TypeError);
    expect(() => bedrockRequestFromJson('{"messages": {}}')).toThrow(/"messages" is not a list/);
  });
});
