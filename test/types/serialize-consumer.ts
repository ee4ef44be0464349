// A consumer of `serialize` as the docs show it: each provider's body spread into its own SDK's request. Compiled
// by serialize-types.test.ts (tsc --noEmit): it compiles only if `serialize(provider, …)` returns that provider's
// body, not the union of all six. The calls are typed, never run.
import Anthropic from '@anthropic-ai/sdk';
import { ConverseCommand } from '@aws-sdk/client-bedrock-runtime';
import { GoogleGenAI } from '@google/genai';
import { Ollama } from 'ollama';
import OpenAI from 'openai';
import { serialize, type Message, type ProviderName, type SerializedRequest } from '@glimpse/agent';
import { toGeminiParameters } from '@glimpse/agent/providers';

const messages: Message[] = [{ role: 'user', parts: [{ type: 'text', text: 'What is on the whiteboard?' }] }];
const tools = [{ name: 'take_photo', description: 'Takes a photo', parameters: { type: 'object', properties: {} } }];
const input = { system: 'You read whiteboards.', messages, tools };

export async function callEverySdk(): Promise<void> {
  const anthropic = new Anthropic({ apiKey: 'key' });
  const anthropicBody = serialize('anthropic', { ...input, model: 'claude-sonnet-5-5' }).body;
  await anthropic.messages.create({ model: 'claude-sonnet-5-5', max_tokens: 4096, ...anthropicBody });

  const openai = new OpenAI({ apiKey: 'key' });
  await openai.chat.completions.create({ model: 'gpt-5.1', ...serialize('openai-chat', input).body });
  await openai.responses.create({ model: 'gpt-5.1', ...serialize('openai-responses', input).body });

  const gemini = new GoogleGenAI({ apiKey: 'key' });
  const geminiBody = serialize('gemini', { ...input, model: 'gemini-3.1-pro-preview' }).body;
  await gemini.models.generateContent(toGeminiParameters(geminiBody, 'gemini-3.1-pro-preview'));

  const modelId = 'us.anthropic.claude-sonnet-4-6';
  new ConverseCommand({ modelId, ...serialize('bedrock', { ...input, model: modelId }).body });

  const ollama = new Ollama();
  await ollama.chat({ model: 'qwen2.5vl:7b', ...serialize('ollama', input).body, stream: false });

  // The body is the provider's own type, not `any`: another provider's body is refused.
  // @ts-expect-error an OpenAI Chat body is no Anthropic request (no top-level system, other message shapes)
  await anthropic.messages.create({ model: 'm', max_tokens: 1, ...serialize('openai-chat', input).body });
  // @ts-expect-error a Bedrock body has no `contents`
  toGeminiParameters(serialize('bedrock', input).body, 'gemini-3.1-pro-preview');
}

/** A provider chosen at run time still gets the tagged union, which narrows on `provider`. */
export function narrow(provider: ProviderName): number {
  const request: SerializedRequest = serialize(provider, input);
  if (request.provider === 'gemini') return request.body.contents.length;
  if (request.provider === 'anthropic') return request.body.messages.length;
  return request.warnings.length;
}
