// Proof against the real SDKs at run time: each client takes the serializer's output as its own request and
// sends exactly those messages on the wire. A capturing fetch stands in for the network.
import Anthropic from '@anthropic-ai/sdk';
import { BedrockRuntimeClient, ConverseCommand } from '@aws-sdk/client-bedrock-runtime';
import { GoogleGenAI } from '@google/genai';
import { Ollama } from 'ollama';
import OpenAI from 'openai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { requestJson } from '../cli/prepare.js';
import { CONVERSATION, TOOLS } from './__golden__/conversation.js';
import { serializeAnthropic } from './anthropic.js';
import { serializeBedrock } from './bedrock.js';
import { serializeGemini } from './gemini.js';
import { serializeOllama } from './ollama.js';
import { serializeOpenAIChat } from './openai-chat.js';
import { serializeOpenAIResponses } from './openai-responses.js';

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

describe('the SDKs send serializer output unchanged', () => {
  it('Anthropic', async () => {
    const { messages, tools } = serializeAnthropic({ messages: CONVERSATION, tools: TOOLS, model: 'claude-sonnet-4-5' });
    const client = new Anthropic({ apiKey: 'test', fetch: captureFetch, maxRetries: 0 });
    const body = await captured(() => client.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 100, messages, tools }));
    expect(body.messages).toEqual(plain(messages));
    expect(body.tools).toEqual(plain(tools));
  });

  it('OpenAI Chat and Responses', async () => {
    const client = new OpenAI({ apiKey: 'test', fetch: captureFetch, maxRetries: 0 });
    const chat = serializeOpenAIChat({ messages: CONVERSATION, tools: TOOLS, model: 'gpt-4.1' });
    const chatBody = await captured(() => client.chat.completions.create({ model: 'gpt-4.1', messages: chat.messages, tools: chat.tools }));
    expect(chatBody.messages).toEqual(plain(chat.messages));
    const responses = serializeOpenAIResponses({ messages: CONVERSATION, tools: TOOLS, model: 'gpt-5' });
    const responsesBody = await captured(() => client.responses.create({ model: 'gpt-5', input: responses.messages, tools: responses.tools }));
    expect(responsesBody.input).toEqual(plain(responses.messages));
  });

  it('Gemini', async () => {
    vi.stubGlobal('fetch', captureFetch);
    const { messages, tools } = serializeGemini({ messages: CONVERSATION, tools: TOOLS, model: 'gemini-3-pro-preview' });
    const client = new GoogleGenAI({ apiKey: 'test' });
    const body = await captured(() => client.models.generateContent({ model: 'gemini-3-pro-preview', contents: messages, config: { tools } }));
    expect(body.contents).toEqual(plain(messages));
  });

  it('Bedrock, whose JSON wire format carries bytes as base64 — what glimpse prepare prints', async () => {
    const { messages, tools } = serializeBedrock({ messages: CONVERSATION, tools: TOOLS, model: 'anthropic.claude-3-5-sonnet-20241022-v2:0' });
    let body: Record<string, unknown> | undefined;
    const client = new BedrockRuntimeClient({
      region: 'us-east-1',
      credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
      maxAttempts: 1,
      requestHandler: {
        async handle(request: { body?: unknown }) {
          body = JSON.parse(String(request.body));
          throw new Captured(body ?? {});
        },
      },
    });
    await expect(client.send(new ConverseCommand({ modelId: 'anthropic.claude-3-5-sonnet-20241022-v2:0', messages, toolConfig: { tools } }))).rejects.toThrow();
    expect(body?.messages).toEqual(JSON.parse(requestJson(messages)));
  });

  it('Ollama', async () => {
    const { messages, tools } = serializeOllama({ messages: CONVERSATION, tools: TOOLS, model: 'qwen2.5vl:7b' });
    const client = new Ollama({ host: 'http://127.0.0.1:9', fetch: captureFetch });
    const body = await captured(() => client.chat({ model: 'qwen2.5vl:7b', messages, tools, stream: false }));
    expect(body.messages).toEqual(plain(messages));
    expect(body.tools).toEqual(plain(tools));
  });
});
