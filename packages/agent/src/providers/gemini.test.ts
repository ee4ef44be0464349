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
import { serializeGemini, SKIP_THOUGHT_SIGNATURE } from './gemini.js';

const inline = (part: { mediaType: string; data: string }) => ({
  inlineData: { mimeType: part.mediaType, data: part.data },
});
const userTurn = { role: 'user', parts: [{ text: 'What changed?' }, inline(USER_IMAGE)] };
// Gemini 3 gets the image's media_resolution level: 640×480 is 14×10 patches of 48 px, within low's 280.
const userTurn3 = {
  role: 'user',
  parts: [{ text: 'What changed?' }, { ...inline(USER_IMAGE), mediaResolution: { level: 'MEDIA_RESOLUTION_LOW' } }],
};
const tools = [
  {
    functionDeclarations: [
      { name: 'view_file', description: 'Look at a file.', parametersJsonSchema: TOOLS[0]!.parameters },
    ],
  },
];
const tail = [
  { role: 'model', parts: [{ text: 'Revenue grew; the build fails.' }] },
  { role: 'user', parts: [{ text: 'Why does it fail?' }] },
];

function modelTurn(signed: boolean) {
  return {
    role: 'model',
    parts: [
      { text: 'Let me look.' },
      {
        functionCall: { id: 'call_a', name: 'view_file', args: { path: 'chart.jpg' } },
        ...(signed ? { thoughtSignature: SKIP_THOUGHT_SIGNATURE } : {}),
      },
      { functionCall: { id: 'call_b', name: 'view_file', args: { path: 'Q3 report.v2.pdf' } } },
      { functionCall: { id: 'call_c', name: 'run', args: { command: 'make' } } },
    ],
  };
}

describe('serializeGemini', () => {
  it('Gemini 3: media inside functionResponse.parts, one functionResponse per call', () => {
    expect(serializeGemini({ messages: CONVERSATION, tools: TOOLS, model: 'gemini-3-pro-preview' })).toEqual({
      body: {
        contents: [
          userTurn3,
          modelTurn(true),
          {
            role: 'user',
            parts: [
              {
                functionResponse: {
                  id: 'call_a',
                  name: 'view_file',
                  response: { output: 'chart.jpg' },
                  parts: [inline(CHART)],
                },
              },
              {
                functionResponse: {
                  id: 'call_b',
                  name: 'view_file',
                  response: { output: '[1 PDF attached]' },
                  parts: [
                    { inlineData: { mimeType: 'application/pdf', data: REPORT.data, displayName: 'Q3 report.v2.pdf' } },
                  ],
                },
              },
              {
                functionResponse: {
                  id: 'call_c',
                  name: 'run',
                  response: { error: 'make failed: exit 2' },
                  parts: [inline(CRASH)],
                },
              },
            ],
          },
          ...tail,
        ],
        tools,
      },
      warnings: [],
    });
  });

  it('older Gemini: functionResponse parts first (even for a file-only result), then the media in the same turn', () => {
    expect(serializeGemini({ messages: CONVERSATION, tools: TOOLS, model: 'gemini-2.5-flash' })).toEqual({
      body: {
        contents: [
          userTurn,
          modelTurn(false),
          {
            role: 'user',
            parts: [
              {
                functionResponse: {
                  id: 'call_a',
                  name: 'view_file',
                  response: {
                    output: 'chart.jpg\n[1 image from this result is attached after the tool results, labelled call_a]',
                  },
                },
              },
              {
                functionResponse: {
                  id: 'call_b',
                  name: 'view_file',
                  response: { output: '[1 PDF from this result is attached after the tool results, labelled call_b]' },
                },
              },
              {
                functionResponse: {
                  id: 'call_c',
                  name: 'run',
                  response: {
                    error:
                      'make failed: exit 2\n[1 image from this result is attached after the tool results, labelled call_c]',
                  },
                },
              },
              { text: 'Attached from tool result call_a (view_file):' },
              inline(CHART),
              { text: 'Attached from tool result call_b (view_file):' },
              inline(REPORT),
              { text: 'Attached from tool result call_c (run):' },
              inline(CRASH),
            ],
          },
          ...tail,
        ],
        tools,
      },
      warnings: [],
    });
  });

  it('sends one functionResponse per call for results that hold nothing at all', () => {
    const {
      body: { contents: messages },
    } = serializeGemini({
      model: 'gemini-2.0-flash',
      messages: [
        {
          role: 'assistant',
          text: '',
          toolCalls: [
            { id: 'a', name: 'touch', arguments: {} },
            { id: 'b', name: 'touch', arguments: {} },
          ],
        },
        { role: 'toolResult', toolCallId: 'a', toolName: 'touch', parts: [], isError: false },
        { role: 'toolResult', toolCallId: 'b', toolName: 'touch', parts: [], isError: false },
      ],
    });
    expect(messages[1]).toEqual({
      role: 'user',
      parts: [
        { functionResponse: { id: 'a', name: 'touch', response: { output: '(no output)' } } },
        { functionResponse: { id: 'b', name: 'touch', response: { output: '(no output)' } } },
      ],
    });
  });

  it('sends placeholders for a text-only model, history included', () => {
    const {
      body: { contents: messages },
    } = serializeGemini({ messages: CONVERSATION, model: 'gemini-3-flash', ...TEXT_ONLY });
    expect(messages[0]).toEqual({ role: 'user', parts: [{ text: 'What changed?' }, { text: PLACEHOLDER.userImage }] });
    expect(messages[2]).toEqual({
      role: 'user',
      parts: [
        {
          functionResponse: {
            id: 'call_a',
            name: 'view_file',
            response: { output: `chart.jpg\n${PLACEHOLDER.chart}` },
          },
        },
        { functionResponse: { id: 'call_b', name: 'view_file', response: { output: PLACEHOLDER.report } } },
        {
          functionResponse: {
            id: 'call_c',
            name: 'run',
            response: { error: `make failed: exit 2\n${PLACEHOLDER.crash}` },
          },
        },
      ],
    });
  });

  it('replaces an image format Gemini refuses (GIF) with a placeholder and a warning', () => {
    const gif = { type: 'image' as const, mediaType: 'image/gif' as const, data: btoa('gif'), width: 10, height: 10 };
    const {
      body: { contents: messages },
      warnings,
    } = serializeGemini({ messages: [{ role: 'user', parts: [gif] }] });
    expect(messages).toEqual([
      {
        role: 'user',
        parts: [
          {
            text: '[an image (image/gif, 10x10 px) was omitted: this provider does not accept that image format (build tool results with toolResultFrom for this provider to convert it)]',
          },
        ],
      },
    ]);
    expect(warnings.map((w) => (w.type === 'media-omitted' ? w.reason : w.type))).toEqual(['format-not-accepted']);
  });

  it('keeps the Gemini 3 thought signature when an app moves media out of the function response', () => {
    const { body } = serializeGemini({
      messages: CONVERSATION,
      model: 'gemini-3-pro-preview',
      capabilities: { mediaInToolResults: false },
    });
    const call = body.contents[1]!.parts!.find((part) => part.functionCall !== undefined);
    expect(call?.thoughtSignature).toBe('skip_thought_signature_validator');
    // The media went beside the functionResponse parts, as asked.
    expect(body.contents[2]!.parts!.some((part) => part.inlineData !== undefined)).toBe(true);
    const older = serializeGemini({ messages: CONVERSATION, model: 'gemini-2.5-flash' }).body;
    expect(JSON.stringify(older)).not.toContain('thoughtSignature');
  });
});
