import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { liftAiSdkToolMedia } from './lift-ai-sdk-tool-media.js';

const image = { type: 'file' as const, data: { type: 'data' as const, data: 'iVBORw0KGgo=' }, mediaType: 'image/png' };
const pdf = {
  type: 'file' as const,
  data: { type: 'data' as const, data: 'JVBERi0=' },
  mediaType: 'application/pdf',
  filename: 'a.pdf',
};
const audio = { type: 'file' as const, data: { type: 'data' as const, data: 'UklGRg==' }, mediaType: 'audio/wav' };

const calls: LanguageModelV4Prompt[number] = {
  role: 'assistant',
  content: [
    { type: 'tool-call', toolCallId: 'c1', toolName: 'shot', input: {} },
    { type: 'tool-call', toolCallId: 'c2', toolName: 'doc', input: {} },
  ],
};

describe('liftAiSdkToolMedia', () => {
  it('moves the media of all results of a turn into one user message, merged with the next user turn', () => {
    const prompt: LanguageModelV4Prompt = [
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      calls,
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 'shot',
            output: { type: 'content', value: [{ type: 'text', text: 'shot taken' }, image] },
          },
          { type: 'tool-result', toolCallId: 'c2', toolName: 'doc', output: { type: 'content', value: [pdf, audio] } },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'what do you see?' }] },
    ];
    expect(liftAiSdkToolMedia(prompt)).toEqual([
      prompt[0],
      calls,
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 'shot',
            output: {
              type: 'text',
              value: 'shot taken\n[1 image from this result is attached after the tool results, labelled c1]',
            },
          },
          {
            type: 'tool-result',
            toolCallId: 'c2',
            toolName: 'doc',
            // The audio file is not glimpse's to move: it stays where the app put it.
            output: {
              type: 'content',
              value: [
                { type: 'text', text: '[1 PDF from this result is attached after the tool results, labelled c2]' },
                audio,
              ],
            },
          },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Attached from tool result c1 (shot):' },
          image,
          { type: 'text', text: 'Attached from tool result c2 (doc):' },
          pdf,
          { type: 'text', text: 'what do you see?' },
        ],
      },
    ]);
  });

  it('adds a user message after the last tool message when the model speaks next, and leaves text-only results alone', () => {
    const textOnly = {
      type: 'tool-result' as const,
      toolCallId: 'c2',
      toolName: 'doc',
      output: { type: 'text' as const, value: 'no file' },
    };
    const prompt: LanguageModelV4Prompt = [
      calls,
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'c1', toolName: 'shot', output: { type: 'content', value: [image] } },
          textOnly,
        ],
      },
    ];
    const lifted = liftAiSdkToolMedia(prompt);
    expect(lifted).toHaveLength(3);
    expect(lifted[1]).toEqual({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'c1',
          toolName: 'shot',
          output: { type: 'text', value: '[1 image from this result is attached after the tool results, labelled c1]' },
        },
        textOnly,
      ],
    });
    expect(lifted[2]).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'Attached from tool result c1 (shot):' }, image],
    });
  });
});
