import { describe, expect, it } from 'vitest';
import { base64ToBytes } from '../base64.js';
import type { ImagePart, Message } from '../types.js';
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
import { resolveRoute } from '../route/resolve-route.js';
import { serializeBedrock } from './bedrock.js';

// The Converse API's per-message caps, as the route carries them (NaN, and an empty test, if it carried none).
const { imagesPerMessage: BEDROCK_MAX_IMAGES = Number.NaN, documentsPerMessage: BEDROCK_MAX_DOCUMENTS = Number.NaN } =
  resolveRoute({ provider: 'bedrock' }).media.limits;

const bytes = (part: { data: string }) => base64ToBytes(part.data)!;
const image = (part: ImagePart) => ({
  image: { format: part.mediaType.slice('image/'.length), source: { bytes: bytes(part) } },
});
const report = { document: { format: 'pdf', name: 'Q3 report-v2', source: { bytes: bytes(REPORT) } } };
const head = [
  { role: 'user', content: [{ text: 'What changed?' }, image(USER_IMAGE)] },
  {
    role: 'assistant',
    content: [
      { text: 'Let me look.' },
      { toolUse: { toolUseId: 'call_a', name: 'view_file', input: { path: 'chart.jpg' } } },
      { toolUse: { toolUseId: 'call_b', name: 'view_file', input: { path: 'Q3 report.v2.pdf' } } },
      { toolUse: { toolUseId: 'call_c', name: 'run', input: { command: 'make' } } },
    ],
  },
];
const tail = [
  { role: 'assistant', content: [{ text: 'Revenue grew; the build fails.' }] },
  { role: 'user', content: [{ text: 'Why does it fail?' }] },
];
const renamed = {
  type: 'document-renamed',
  from: 'Q3 report.v2.pdf',
  to: 'Q3 report-v2',
  messageIndex: 2,
  message: 'document name "Q3 report.v2.pdf" sent as "Q3 report-v2" (Bedrock\'s character rules)',
};

describe('serializeBedrock', () => {
  it('Claude: image and document blocks inside toolResult.content, error media after the results, a text block beside every document', () => {
    expect(
      serializeBedrock({ messages: CONVERSATION, tools: TOOLS, model: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0' }),
    ).toEqual({
      body: {
        messages: [
          ...head,
          {
            role: 'user',
            content: [
              { toolResult: { toolUseId: 'call_a', content: [{ text: 'chart.jpg' }, image(CHART)] } },
              { toolResult: { toolUseId: 'call_b', content: [{ text: '[1 PDF attached]' }, report] } },
              {
                toolResult: {
                  toolUseId: 'call_c',
                  status: 'error',
                  content: [
                    { text: 'make failed: exit 2' },
                    { text: '[1 image from this result is attached after the tool results, labelled call_c]' },
                  ],
                },
              },
              { text: 'Attached from tool result call_c (run):' },
              image(CRASH),
            ],
          },
          ...tail,
        ],
        toolConfig: {
          tools: [
            {
              toolSpec: {
                name: 'view_file',
                description: 'Look at a file.',
                inputSchema: { json: TOOLS[0]!.parameters },
              },
            },
          ],
        },
      },
      warnings: [renamed],
    });
  });

  it('other models: media of every result follows the toolResult blocks in the same user message', () => {
    const {
      body: { messages },
    } = serializeBedrock({ messages: CONVERSATION, model: 'meta.llama4-maverick-17b-instruct-v1:0' });
    expect(messages[2]).toEqual({
      role: 'user',
      content: [
        {
          toolResult: {
            toolUseId: 'call_a',
            content: [
              { text: 'chart.jpg' },
              { text: '[1 image from this result is attached after the tool results, labelled call_a]' },
            ],
          },
        },
        {
          toolResult: {
            toolUseId: 'call_b',
            content: [{ text: '[1 PDF from this result is attached after the tool results, labelled call_b]' }],
          },
        },
        {
          toolResult: {
            toolUseId: 'call_c',
            status: 'error',
            content: [
              { text: 'make failed: exit 2' },
              { text: '[1 image from this result is attached after the tool results, labelled call_c]' },
            ],
          },
        },
        { text: 'Attached from tool result call_a (view_file):' },
        image(CHART),
        { text: 'Attached from tool result call_b (view_file):' },
        report,
        { text: 'Attached from tool result call_c (run):' },
        image(CRASH),
      ],
    });
  });

  it('sends placeholders for a text-only model', () => {
    const {
      body: { messages },
    } = serializeBedrock({ messages: CONVERSATION, model: 'amazon.nova-micro-v1:0' });
    expect(messages[0]).toEqual({
      role: 'user',
      content: [{ text: 'What changed?' }, { text: PLACEHOLDER.userImage }],
    });
    expect(messages[2]).toEqual({
      role: 'user',
      content: [
        { toolResult: { toolUseId: 'call_a', content: [{ text: 'chart.jpg' }, { text: PLACEHOLDER.chart }] } },
        { toolResult: { toolUseId: 'call_b', content: [{ text: PLACEHOLDER.report }] } },
        {
          toolResult: {
            toolUseId: 'call_c',
            status: 'error',
            content: [{ text: 'make failed: exit 2' }, { text: PLACEHOLDER.crash }],
          },
        },
      ],
    });
    expect(
      serializeBedrock({ messages: CONVERSATION, model: 'anthropic.claude-3-haiku', ...TEXT_ONLY }).body.messages[2],
    ).toEqual(messages[2]);
  });

  it('adds a text block to a message whose only content is a document', () => {
    const {
      body: { messages },
    } = serializeBedrock({ messages: [{ role: 'user', parts: [REPORT] }] });
    expect(messages).toEqual([{ role: 'user', content: [report, { text: 'The document is attached above.' }] }]);
  });

  it('keeps at most 20 images and 5 documents per message, the newest; the oldest become placeholders with warnings', () => {
    const images = Array.from(
      { length: BEDROCK_MAX_IMAGES + 2 },
      (_, i): ImagePart => ({ ...CHART, data: btoa(`img-${i}`) }),
    );
    const documents = Array.from({ length: BEDROCK_MAX_DOCUMENTS + 1 }, (_, i) => ({
      ...REPORT,
      filename: 'same.pdf',
      data: btoa(`pdf-${i}`),
    }));
    const {
      body: { messages },
      warnings,
    } = serializeBedrock({
      messages: [{ role: 'user', parts: [{ type: 'text', text: 'all of them' }, ...images, ...documents] }],
    });
    const content = messages[0]!.content!;
    expect(content.filter((block) => block.image !== undefined)).toHaveLength(BEDROCK_MAX_IMAGES);
    expect(content.filter((block) => block.document !== undefined).map((block) => block.document.name)).toEqual([
      'same (2)',
      'same (3)',
      'same (4)',
      'same (5)',
      'same (6)',
    ]);
    // The two oldest images gave way, in place: the newest twenty are sent.
    expect(content.slice(1, 3).map((block) => block.text)).toEqual([
      expect.stringContaining('as many images as the provider allows'),
      expect.stringContaining('as many images as the provider allows'),
    ]);
    expect(new TextDecoder().decode(content[3]!.image!.source!.bytes)).toBe('img-2');
    expect(content[BEDROCK_MAX_IMAGES + 3]!.text).toContain('as many documents as the provider allows');
    expect(warnings.map((w) => (w.type === 'media-omitted' ? w.reason : w.type))).toEqual([
      ...Array(5).fill('document-renamed'),
      'too-many-images',
      'too-many-images',
      'too-many-documents',
    ]);
  });

  it('merges same-role neighbours so turns strictly alternate', () => {
    const conversation: Message[] = [
      { role: 'user', parts: [{ type: 'text', text: 'one' }] },
      { role: 'user', parts: [{ type: 'text', text: 'two' }] },
      { role: 'assistant', text: 'a', toolCalls: [] },
      { role: 'assistant', text: 'b', toolCalls: [] },
    ];
    const {
      body: { messages },
      warnings,
    } = serializeBedrock({ messages: conversation });
    expect(messages).toEqual([
      { role: 'user', content: [{ text: 'one' }, { text: 'two' }] },
      { role: 'assistant', content: [{ text: 'a' }, { text: 'b' }] },
    ]);
    expect(warnings.map((w) => w.type)).toEqual(['turns-merged', 'turns-merged']);
  });

  it('sends a placeholder, not a thrown error, for media whose data is not base64', () => {
    const {
      body: { messages },
      warnings,
    } = serializeBedrock({
      messages: [
        {
          role: 'user',
          parts: [
            { type: 'text', text: 'see' },
            { ...CHART, data: '%%%' },
          ],
        },
      ],
    });
    expect(messages).toEqual([
      {
        role: 'user',
        content: [
          { text: 'see' },
          { text: '[an image (image/jpeg, 1568x882 px) was omitted: its data is not valid base64]' },
        ],
      },
    ]);
    expect(warnings.map((w) => (w.type === 'media-omitted' ? w.reason : w.type))).toEqual(['invalid-data']);
  });

  it('warns when the history has tool calls but the request defines no tools (Bedrock needs toolConfig)', () => {
    expect(
      serializeBedrock({ messages: CONVERSATION }).warnings.filter((w) => w.type === 'tools-missing'),
    ).toHaveLength(1);
    expect(
      serializeBedrock({ messages: CONVERSATION, tools: TOOLS }).warnings.filter((w) => w.type === 'tools-missing'),
    ).toEqual([]);
  });
});
