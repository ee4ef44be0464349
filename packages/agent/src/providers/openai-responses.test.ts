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
import { serializeOpenAIResponses } from './openai-responses.js';

const url = (part: { mediaType: string; data: string }) => `data:${part.mediaType};base64,${part.data}`;
const calls = [
  { type: 'function_call', call_id: 'call_a', name: 'view_file', arguments: '{"path":"chart.jpg"}' },
  { type: 'function_call', call_id: 'call_b', name: 'view_file', arguments: '{"path":"Q3 report.v2.pdf"}' },
  { type: 'function_call', call_id: 'call_c', name: 'run', arguments: '{"command":"make"}' },
];

describe('serializeOpenAIResponses', () => {
  it('puts media inside function_call_output.output as input_text/input_image/input_file, with the detail they were fitted for', () => {
    expect(serializeOpenAIResponses({ messages: CONVERSATION, tools: TOOLS, model: 'gpt-5' })).toEqual({
      body: {
        input: [
          {
            role: 'user',
            content: [
              { type: 'input_text', text: 'What changed?' },
              { type: 'input_image', image_url: url(USER_IMAGE), detail: 'high' },
            ],
          },
          { role: 'assistant', content: 'Let me look.' },
          ...calls,
          {
            type: 'function_call_output',
            call_id: 'call_a',
            output: [
              { type: 'input_text', text: 'chart.jpg' },
              { type: 'input_image', image_url: url(CHART), detail: 'high' },
            ],
          },
          {
            type: 'function_call_output',
            call_id: 'call_b',
            output: [{ type: 'input_file', filename: 'Q3 report.v2.pdf', file_data: url(REPORT) }],
          },
          {
            type: 'function_call_output',
            call_id: 'call_c',
            output: [
              { type: 'input_text', text: 'Error: make failed: exit 2' },
              { type: 'input_image', image_url: url(CRASH), detail: 'high' },
            ],
          },
          { role: 'assistant', content: 'Revenue grew; the build fails.' },
          { role: 'user', content: 'Why does it fail?' },
        ],
        tools: [
          {
            type: 'function',
            name: 'view_file',
            description: 'Look at a file.',
            parameters: TOOLS[0]!.parameters,
            strict: false,
          },
        ],
      },
      warnings: [],
    });
  });

  it('lifts media into one user message after the outputs when asked (gateways that drop arrays)', () => {
    const {
      body: { input: messages },
    } = serializeOpenAIResponses({ messages: CONVERSATION, liftToolMedia: true });
    expect(messages.slice(5, 9)).toEqual([
      {
        type: 'function_call_output',
        call_id: 'call_a',
        output: 'chart.jpg\n[1 image from this result is attached after the tool results, labelled call_a]',
      },
      {
        type: 'function_call_output',
        call_id: 'call_b',
        output: '[1 PDF from this result is attached after the tool results, labelled call_b]',
      },
      {
        type: 'function_call_output',
        call_id: 'call_c',
        output:
          'Error: make failed: exit 2\n[1 image from this result is attached after the tool results, labelled call_c]',
      },
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'Attached from tool result call_a (view_file):' },
          { type: 'input_image', image_url: url(CHART), detail: 'auto' },
          { type: 'input_text', text: 'Attached from tool result call_b (view_file):' },
          { type: 'input_file', filename: 'Q3 report.v2.pdf', file_data: url(REPORT) },
          { type: 'input_text', text: 'Attached from tool result call_c (run):' },
          { type: 'input_image', image_url: url(CRASH), detail: 'auto' },
        ],
      },
    ]);
  });

  it('sends plain string outputs with placeholders for a text-only model', () => {
    const {
      body: { input: messages },
    } = serializeOpenAIResponses({ messages: CONVERSATION, ...TEXT_ONLY });
    expect(messages[0]).toEqual({ role: 'user', content: `What changed?\n${PLACEHOLDER.userImage}` });
    expect(messages.slice(5, 8)).toEqual([
      { type: 'function_call_output', call_id: 'call_a', output: `chart.jpg\n${PLACEHOLDER.chart}` },
      { type: 'function_call_output', call_id: 'call_b', output: PLACEHOLDER.report },
      { type: 'function_call_output', call_id: 'call_c', output: `Error: make failed: exit 2\n${PLACEHOLDER.crash}` },
    ]);
  });

  it('flags an error result whose first part is media with a leading Error line', () => {
    const {
      body: { input: messages },
    } = serializeOpenAIResponses({
      messages: [
        { role: 'assistant', text: '', toolCalls: [{ id: 'x', name: 'shot', arguments: {} }] },
        { role: 'toolResult', toolCallId: 'x', toolName: 'shot', parts: [CRASH], isError: true },
      ],
    });
    expect(messages[1]).toEqual({
      type: 'function_call_output',
      call_id: 'x',
      output: [
        { type: 'input_text', text: 'Error:' },
        { type: 'input_image', image_url: url(CRASH) },
      ],
    });
  });
});
