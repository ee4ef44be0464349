import { describe, expect, it } from 'vitest';
import { CHART, CONVERSATION, CRASH, PLACEHOLDER, TOOLS, USER_IMAGE } from './__golden__/conversation.js';
import { serializeOllama } from './ollama.js';

const head = [
  { role: 'user', content: 'What changed?', images: [USER_IMAGE.data] },
  {
    role: 'assistant',
    content: 'Let me look.',
    tool_calls: [
      { function: { name: 'view_file', arguments: { path: 'chart.jpg' } } },
      { function: { name: 'view_file', arguments: { path: 'Q3 report.v2.pdf' } } },
      { function: { name: 'run', arguments: { command: 'make' } } },
    ],
  },
];
const tail = [
  { role: 'assistant', content: 'Revenue grew; the build fails.' },
  { role: 'user', content: 'Why does it fail?' },
];

describe('serializeOllama', () => {
  it('puts raw base64 images on the tool message and turns the PDF into a note (Ollama has no documents)', () => {
    expect(serializeOllama({ messages: CONVERSATION, tools: TOOLS, model: 'qwen2.5vl:7b' })).toEqual({
      body: {
        messages: [
          ...head,
          { role: 'tool', content: 'chart.jpg', images: [CHART.data], tool_name: 'view_file' },
          { role: 'tool', content: PLACEHOLDER.report, tool_name: 'view_file' },
          { role: 'tool', content: 'Error: make failed: exit 2', images: [CRASH.data], tool_name: 'run' },
          ...tail,
        ],
        tools: [
          {
            type: 'function',
            function: {
              name: 'view_file',
              description: 'Look at a file.',
              parameters: {
                type: 'object',
                required: ['path'],
                properties: { path: { type: 'string', description: 'The file.' } },
              },
            },
          },
        ],
      },
      warnings: [
        {
          type: 'media-omitted',
          reason: 'no-pdf-input',
          mediaType: 'application/pdf',
          messageIndex: 2,
          message: PLACEHOLDER.report.slice(1, -1),
        },
      ],
    });
  });

  it('never prefixes images with a data URL', () => {
    const {
      body: { messages },
    } = serializeOllama({ messages: CONVERSATION, model: 'llava:13b' });
    const images = messages.flatMap((m): unknown[] => m.images ?? []);
    expect(images).toEqual([USER_IMAGE.data, CHART.data, CRASH.data]);
    for (const image of images) expect(String(image)).not.toMatch(/^data:/);
  });

  it('treats an unknown local model as text-only, history included', () => {
    const {
      body: { messages },
    } = serializeOllama({ messages: CONVERSATION, model: 'my-finetune:latest' });
    expect(messages.slice(0, 1)).toEqual([{ role: 'user', content: `What changed?\n${PLACEHOLDER.userImage}` }]);
    expect(messages.slice(2, 5)).toEqual([
      { role: 'tool', content: `chart.jpg\n${PLACEHOLDER.chart}`, tool_name: 'view_file' },
      { role: 'tool', content: PLACEHOLDER.report, tool_name: 'view_file' },
      { role: 'tool', content: `Error: make failed: exit 2\n${PLACEHOLDER.crash}`, tool_name: 'run' },
    ]);
  });

  it('lifts images into one user message after the tool messages for models marked without media in tool results', () => {
    const {
      body: { messages },
    } = serializeOllama({
      messages: CONVERSATION.slice(0, 5),
      model: 'llama3.2-vision',
      capabilities: { mediaInToolResults: false },
    });
    expect(messages.slice(2)).toEqual([
      {
        role: 'tool',
        content: 'chart.jpg\n[1 image from this result is attached after the tool results, labelled call_a]',
        tool_name: 'view_file',
      },
      { role: 'tool', content: PLACEHOLDER.report, tool_name: 'view_file' },
      {
        role: 'tool',
        content:
          'Error: make failed: exit 2\n[1 image from this result is attached after the tool results, labelled call_c]',
        tool_name: 'run',
      },
      {
        role: 'user',
        content: 'Attached from tool result call_a (view_file):\nAttached from tool result call_c (run):',
        images: [CHART.data, CRASH.data],
      },
    ]);
  });

  it('drops schema properties the ollama client cannot type, with a warning', () => {
    const {
      body: { tools },
      warnings,
    } = serializeOllama({
      messages: [],
      tools: [
        {
          name: 't',
          description: 'd',
          parameters: { type: 'object', properties: { ok: { type: 'string' }, bad: 'nope' } },
        },
      ],
    });
    expect(tools).toEqual([
      {
        type: 'function',
        function: {
          name: 't',
          description: 'd',
          parameters: { type: 'object', properties: { ok: { type: 'string' } } },
        },
      },
    ]);
    expect(warnings).toEqual([
      {
        type: 'tool-schema-adjusted',
        toolName: 't',
        message: 'dropped property "bad" of t: not a JSON-schema object Ollama can take',
      },
    ]);
  });
});
