// Every AI SDK provider glimpse serves, built over a capturing fetch, with the replies each API gives for a
// tool call and for a final text (non-streaming, as `generateText` asks for them).
import { createAmazonBedrock } from '@ai-sdk/amazon-bedrock';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import type { LanguageModelV4 } from '@ai-sdk/provider';
import { createOllama } from 'ollama-ai-provider-v2';
import { jsonResponse } from './capture-fetch.js';
import { RESPONSES_USAGE } from './stream-replies.js';

type FetchFunction = typeof globalThis.fetch;

export type AiSdkRouteName = 'anthropic' | 'openai-chat' | 'openai-responses' | 'gemini' | 'bedrock' | 'ollama';

export interface AiSdkProviderCase {
  route: AiSdkRouteName;
  modelId: string;
  model(fetch: FetchFunction): LanguageModelV4;
  /** The API's reply asking for one call of `name` with id `id` and no arguments. */
  toolCall(name: string, id: string): Response;
  /** The API's final reply. */
  text(text: string): Response;
}

const usage = { input_tokens: 10, output_tokens: 5 };

export const AI_SDK_PROVIDERS: readonly AiSdkProviderCase[] = [
  {
    route: 'anthropic',
    modelId: 'claude-sonnet-4-6',
    model: (fetch) => createAnthropic({ apiKey: 'test-key', fetch })('claude-sonnet-4-6'),
    toolCall: (name, id) =>
      jsonResponse({
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-6',
        content: [{ type: 'tool_use', id, name, input: {} }],
        stop_reason: 'tool_use',
        stop_sequence: null,
        usage,
      }),
    text: (text) =>
      jsonResponse({
        id: 'msg_2',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-6',
        content: [{ type: 'text', text }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage,
      }),
  },
  {
    route: 'openai-chat',
    modelId: 'gpt-4.1',
    model: (fetch) => createOpenAI({ apiKey: 'test-key', fetch }).chat('gpt-4.1'),
    toolCall: (name, id) =>
      jsonResponse({
        id: 'chatcmpl-1',
        object: 'chat.completion',
        created: 1_700_000_000,
        model: 'gpt-4.1',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: null,
              tool_calls: [{ id, type: 'function', function: { name, arguments: '{}' } }],
            },
            finish_reason: 'tool_calls',
          },
        ],
        usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
      }),
    text: (text) =>
      jsonResponse({
        id: 'chatcmpl-2',
        object: 'chat.completion',
        created: 1_700_000_001,
        model: 'gpt-4.1',
        choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
      }),
  },
  {
    route: 'openai-responses',
    modelId: 'gpt-5.1',
    model: (fetch) => createOpenAI({ apiKey: 'test-key', fetch }).responses('gpt-5.1'),
    toolCall: (name, id) =>
      jsonResponse(
        responsesReply([
          { type: 'function_call', id: 'fc_1', call_id: id, name, arguments: '{}', status: 'completed' },
        ]),
      ),
    text: (text) =>
      jsonResponse(
        responsesReply([
          {
            type: 'message',
            id: 'msg_1',
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'output_text', text, annotations: [] }],
          },
        ]),
      ),
  },
  {
    route: 'gemini',
    modelId: 'gemini-3-pro-preview',
    model: (fetch) => createGoogleGenerativeAI({ apiKey: 'test-key', fetch })('gemini-3-pro-preview'),
    toolCall: (name) => jsonResponse(geminiReply([{ functionCall: { name, args: {} } }])),
    text: (text) => jsonResponse(geminiReply([{ text }])),
  },
  {
    route: 'bedrock',
    modelId: 'us.anthropic.claude-sonnet-4-6-v1:0',
    model: (fetch) =>
      createAmazonBedrock({ region: 'us-east-1', accessKeyId: 'AKIDTEST', secretAccessKey: 'test-secret', fetch })(
        'us.anthropic.claude-sonnet-4-6-v1:0',
      ),
    toolCall: (name, id) =>
      jsonResponse({
        output: { message: { role: 'assistant', content: [{ toolUse: { toolUseId: id, name, input: {} } }] } },
        stopReason: 'tool_use',
        usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
      }),
    text: (text) =>
      jsonResponse({
        output: { message: { role: 'assistant', content: [{ text }] } },
        stopReason: 'end_turn',
        usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
      }),
  },
  {
    route: 'ollama',
    modelId: 'qwen2.5vl:7b',
    model: (fetch) => createOllama({ fetch })('qwen2.5vl:7b'),
    toolCall: (name) =>
      jsonResponse(
        ollamaReply({ role: 'assistant', content: '', tool_calls: [{ function: { name, arguments: {} } }] }),
      ),
    text: (text) => jsonResponse(ollamaReply({ role: 'assistant', content: text })),
  },
];

function responsesReply(output: unknown[]) {
  return {
    id: 'resp_1',
    object: 'response',
    created_at: 1_700_000_000,
    model: 'gpt-5.1',
    status: 'completed',
    output,
    usage: RESPONSES_USAGE,
  };
}

function geminiReply(parts: unknown[]) {
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
  };
}

function ollamaReply(message: unknown) {
  return {
    model: 'qwen2.5vl:7b',
    created_at: '2026-11-30T00:00:00Z',
    message,
    done: true,
    done_reason: 'stop',
    prompt_eval_count: 10,
    eval_count: 5,
  };
}
