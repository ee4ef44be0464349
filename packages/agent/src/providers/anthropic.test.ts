import { describe, expect, it } from 'vitest';
import type { Message } from '../types.js';
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
import { serializeAnthropic } from './anthropic.js';

const image = (part: typeof USER_IMAGE) => ({
  type: 'image',
  source: { type: 'base64', media_type: part.mediaType, data: part.data },
});
const text = (value: string) => ({ type: 'text', text: value });

describe('serializeAnthropic', () => {
  it('puts media inside tool_result content, results first and in tool_use order, error media after them', () => {
    expect(serializeAnthropic({ messages: CONVERSATION, tools: TOOLS, model: 'claude-sonnet-4-5' })).toEqual({
      body: {
        messages: [
          { role: 'user', content: [text('What changed?'), image(USER_IMAGE)] },
          {
            role: 'assistant',
            content: [
              text('Let me look.'),
              { type: 'tool_use', id: 'call_a', name: 'view_file', input: { path: 'chart.jpg' } },
              { type: 'tool_use', id: 'call_b', name: 'view_file', input: { path: 'Q3 report.v2.pdf' } },
              { type: 'tool_use', id: 'call_c', name: 'run', input: { command: 'make' } },
            ],
          },
          {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: 'call_a', content: [text('chart.jpg'), image(CHART)] },
              {
                type: 'tool_result',
                tool_use_id: 'call_b',
                content: [
                  {
                    type: 'document',
                    source: { type: 'base64', media_type: 'application/pdf', data: REPORT.data },
                    title: 'Q3 report.v2.pdf',
                  },
                ],
              },
              // The API wants is_error results to be text only.
              {
                type: 'tool_result',
                tool_use_id: 'call_c',
                is_error: true,
                content: [
                  text('make failed: exit 2'),
                  text('[1 image from this result is attached after the tool results, labelled call_c]'),
                ],
              },
              text('Attached from tool result call_c (run):'),
              image(CRASH),
            ],
          },
          { role: 'assistant', content: [text('Revenue grew; the build fails.')] },
          { role: 'user', content: [text('Why does it fail?')] },
        ],
        tools: [
          {
            name: 'view_file',
            description: 'Look at a file.',
            input_schema: {
              type: 'object',
              properties: { path: { type: 'string', description: 'The file.' } },
              required: ['path'],
            },
          },
        ],
      },
      warnings: [],
    });
  });

  it('replaces every image and PDF with a placeholder for a text-only model, history included', () => {
    const {
      body: { messages },
      warnings,
    } = serializeAnthropic({ messages: CONVERSATION, tools: TOOLS, ...TEXT_ONLY });
    expect(messages[0]).toEqual({ role: 'user', content: [text('What changed?'), text(PLACEHOLDER.userImage)] });
    expect(messages[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'call_a', content: [text('chart.jpg'), text(PLACEHOLDER.chart)] },
        { type: 'tool_result', tool_use_id: 'call_b', content: [text(PLACEHOLDER.report)] },
        {
          type: 'tool_result',
          tool_use_id: 'call_c',
          is_error: true,
          content: [text('make failed: exit 2'), text(PLACEHOLDER.crash)],
        },
      ],
    });
    expect(
      warnings.map((w) => [
        w.type,
        w.type === 'media-omitted' ? w.reason : '',
        w.type === 'media-omitted' ? w.messageIndex : -1,
      ]),
    ).toEqual([
      ['media-omitted', 'no-image-input', 0],
      ['media-omitted', 'no-pdf-input', 2],
      ['media-omitted', 'no-image-input', 3],
      ['media-omitted', 'no-image-input', 4],
    ]);
  });

  it('knows text-only Claude models from the registry', () => {
    const {
      body: { messages },
    } = serializeAnthropic({ messages: CONVERSATION.slice(0, 1), model: 'claude-2.1' });
    expect(messages).toEqual([{ role: 'user', content: [text('What changed?'), text(PLACEHOLDER.userImage)] }]);
  });

  it('merges a user message that follows the results into the same turn, after every tool_result', () => {
    const conversation: Message[] = [
      { role: 'user', parts: [{ type: 'text', text: 'go' }] },
      { role: 'assistant', text: '', toolCalls: [{ id: 't1', name: 'shot', arguments: {} }] },
      { role: 'toolResult', toolCallId: 't1', toolName: 'shot', parts: [CHART], isError: false },
      { role: 'user', parts: [{ type: 'text', text: 'and this one' }, USER_IMAGE] },
    ];
    expect(serializeAnthropic({ messages: conversation }).body.messages).toEqual([
      { role: 'user', content: [text('go')] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'shot', input: {} }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 't1', content: [image(CHART)] },
          text('and this one'),
          image(USER_IMAGE),
        ],
      },
    ]);
  });

  it('answers a call that has no result with an error result, and drops a result with no call', () => {
    const conversation: Message[] = [
      { role: 'user', parts: [{ type: 'text', text: 'go' }] },
      { role: 'assistant', text: '', toolCalls: [{ id: 't1', name: 'slow', arguments: {} }] },
      { role: 'toolResult', toolCallId: 'stray', toolName: 'slow', parts: [], isError: false },
    ];
    const {
      body: { messages },
      warnings,
    } = serializeAnthropic({ messages: conversation, tools: TOOLS });
    expect(messages[2]).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 't1',
          is_error: true,
          content: [text('No result: the tool call was interrupted before it returned.')],
        },
      ],
    });
    expect(warnings.map((w) => w.type)).toEqual(['orphan-tool-result', 'missing-tool-result']);
  });

  it('warns when the history has tool calls but the request defines no tools (Anthropic refuses that)', () => {
    const { warnings } = serializeAnthropic({ messages: CONVERSATION });
    expect(warnings.filter((w) => w.type === 'tools-missing')).toHaveLength(1);
    expect(
      serializeAnthropic({ messages: CONVERSATION, tools: TOOLS }).warnings.filter((w) => w.type === 'tools-missing'),
    ).toEqual([]);
  });

  it('keeps the many-image rule: past 20 images, an image with a side over 2000 px becomes a placeholder', () => {
    const wide = { ...CHART, width: 2048, height: 1000 };
    const many = (count: number): Message[] => [
      { role: 'user', parts: [wide, ...Array.from({ length: count - 1 }, () => CHART)] },
    ];
    expect(serializeAnthropic({ messages: many(20) }).body.messages[0]!.content).toHaveLength(20);
    const {
      body: { messages },
      warnings,
    } = serializeAnthropic({ messages: many(21) });
    const content = messages[0]!.content;
    expect(Array.isArray(content) && content[0]).toEqual(
      text(
        '[an image (image/jpeg, 2048x1000 px) was omitted: with more than 20 images in the conversation the provider takes no side over 2000 px (fitConversation fits such images again instead)]',
      ),
    );
    expect(Array.isArray(content) && content.slice(1).every((block) => block.type === 'image')).toBe(true);
    expect(warnings.map((w) => (w.type === 'media-omitted' ? w.reason : w.type))).toEqual([
      'too-large-for-many-images',
    ]);
  });

  it('keeps the newest 100 images of a request; the oldest become placeholders, each with a warning', () => {
    const images = Array.from({ length: 103 }, (_, i) => ({ ...CHART, data: btoa(`img-${i}`) }));
    const {
      body: { messages },
      warnings,
    } = serializeAnthropic({ messages: [{ role: 'user', parts: images }] });
    const content = messages[0]!.content;
    if (!Array.isArray(content)) throw new Error('expected blocks');
    expect(content.slice(0, 3).map((block) => block.type)).toEqual(['text', 'text', 'text']);
    expect(content.slice(3).every((block) => block.type === 'image')).toBe(true);
    expect(content[3]).toEqual(image({ ...CHART, data: btoa('img-3') }));
    expect(warnings.map((w) => (w.type === 'media-omitted' ? w.reason : w.type))).toEqual([
      'too-many-images',
      'too-many-images',
      'too-many-images',
    ]);
  });
});
