import { describe, expect, it } from 'vitest';
import {
  CHART,
  CONVERSATION,
  CRASH,
  PLACEHOLDER,
  REPORT,
  TEXT_ONLY,
  TOOLS,
  USER_IMAGE,
} from './__golden__/conversation.js';
import { serializeOpenAIChat } from './openai-chat.js';

const imageUrl = (part: typeof USER_IMAGE) => ({
  type: 'image_url',
  // gpt-4.1, a tile model: images are fitted for detail "high" (768 px short side) and say so.
  image_url: { url: `data:${part.mediaType};base64,${part.data}`, detail: 'high' },
});
const text = (value: string) => ({ type: 'text', text: value });

describe('serializeOpenAIChat', () => {
  it('keeps tool messages text only and sends the media of all results in ONE user message after the last tool message', () => {
    expect(serializeOpenAIChat({ messages: CONVERSATION, tools: TOOLS, model: 'gpt-4.1' })).toEqual({
      body: {
        messages: [
          { role: 'user', content: [text('What changed?'), imageUrl(USER_IMAGE)] },
          {
            role: 'assistant',
            content: 'Let me look.',
            tool_calls: [
              { id: 'call_a', type: 'function', function: { name: 'view_file', arguments: '{"path":"chart.jpg"}' } },
              {
                id: 'call_b',
                type: 'function',
                function: { name: 'view_file', arguments: '{"path":"Q3 report.v2.pdf"}' },
              },
              { id: 'call_c', type: 'function', function: { name: 'run', arguments: '{"command":"make"}' } },
            ],
          },
          {
            role: 'tool',
            tool_call_id: 'call_a',
            content: 'chart.jpg\n[1 image from this result is attached after the tool results, labelled call_a]',
          },
          {
            role: 'tool',
            tool_call_id: 'call_b',
            content: '[1 PDF from this result is attached after the tool results, labelled call_b]',
          },
          {
            role: 'tool',
            tool_call_id: 'call_c',
            content:
              'Error: make failed: exit 2\n[1 image from this result is attached after the tool results, labelled call_c]',
          },
          {
            role: 'user',
            content: [
              text('Attached from tool result call_a (view_file):'),
              imageUrl(CHART),
              text('Attached from tool result call_b (view_file):'),
              {
                type: 'file',
                file: { filename: 'Q3 report.v2.pdf', file_data: `data:application/pdf;base64,${REPORT.data}` },
              },
              text('Attached from tool result call_c (run):'),
              imageUrl(CRASH),
            ],
          },
          { role: 'assistant', content: 'Revenue grew; the build fails.' },
          { role: 'user', content: 'Why does it fail?' },
        ],
        tools: [
          {
            type: 'function',
            function: { name: 'view_file', description: 'Look at a file.', parameters: TOOLS[0]!.parameters },
          },
        ],
      },
      warnings: [],
    });
  });

  it('never puts base64 into a tool message', () => {
    const {
      body: { messages },
    } = serializeOpenAIChat({ messages: CONVERSATION });
    const toolText = JSON.stringify(messages.filter((m) => m.role === 'tool'));
    for (const part of [CHART, REPORT, CRASH]) expect(toolText).not.toContain(part.data);
  });

  it('merges the lifted media into the next user message when the conversation goes on right after the results', () => {
    const {
      body: { messages },
    } = serializeOpenAIChat({
      messages: [...CONVERSATION.slice(0, 3), { role: 'user', parts: [{ type: 'text', text: 'and?' }] }],
    });
    expect(messages.slice(2)).toEqual([
      {
        role: 'tool',
        tool_call_id: 'call_a',
        content: 'Error: No result: the tool call was interrupted before it returned.',
      },
      {
        role: 'tool',
        tool_call_id: 'call_b',
        content: '[1 PDF from this result is attached after the tool results, labelled call_b]',
      },
      {
        role: 'tool',
        tool_call_id: 'call_c',
        content: 'Error: No result: the tool call was interrupted before it returned.',
      },
      {
        role: 'user',
        content: [
          text('Attached from tool result call_b (view_file):'),
          {
            type: 'file',
            file: { filename: 'Q3 report.v2.pdf', file_data: `data:application/pdf;base64,${REPORT.data}` },
          },
          text('and?'),
        ],
      },
    ]);
  });

  it('sends placeholders and no media message for a text-only model', () => {
    const {
      body: { messages },
      warnings,
    } = serializeOpenAIChat({ messages: CONVERSATION, ...TEXT_ONLY });
    expect(messages[0]).toEqual({ role: 'user', content: `What changed?\n${PLACEHOLDER.userImage}` });
    expect(messages.slice(2, 6)).toEqual([
      { role: 'tool', tool_call_id: 'call_a', content: `chart.jpg\n${PLACEHOLDER.chart}` },
      { role: 'tool', tool_call_id: 'call_b', content: PLACEHOLDER.report },
      { role: 'tool', tool_call_id: 'call_c', content: `Error: make failed: exit 2\n${PLACEHOLDER.crash}` },
      { role: 'assistant', content: 'Revenue grew; the build fails.' },
    ]);
    expect(warnings).toHaveLength(4);
  });

  it('knows text-only OpenAI models from the registry', () => {
    expect(serializeOpenAIChat({ messages: CONVERSATION.slice(0, 1), model: 'gpt-3.5-turbo' }).body.messages).toEqual([
      { role: 'user', content: `What changed?\n${PLACEHOLDER.userImage}` },
    ]);
  });
});
