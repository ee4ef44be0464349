// serialize is typed per route: the documented spreads into the SDKs' own calls compile against the shipped .d.ts
// (with the provider SDKs installed; the source-level consumer in test/types/ covers all six).
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { serialize } from '@glimpse/agent';

export const sdkCalls = [
  () =>
    new Anthropic({ apiKey: 'k' }).messages.create({
      model: 'claude-sonnet-5-5',
      max_tokens: 1024,
      ...serialize('anthropic', { messages: [] }).body,
    }),
  () =>
    new OpenAI({ apiKey: 'k' }).chat.completions.create({
      model: 'gpt-5.1',
      ...serialize('openai-chat', { messages: [] }).body,
    }),
];
