import type { LanguageModelV3Prompt, LanguageModelV4Prompt } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { bridgeV3Prompt } from './bridge-v3-prompt.js';

const bytes = new Uint8Array([1, 2, 3]);

const prompt: LanguageModelV3Prompt = [
  { role: 'system', content: 'Be brief.' },
  {
    role: 'user',
    content: [
      { type: 'text', text: 'Look.' },
      { type: 'file', data: bytes, mediaType: 'image/png' },
      { type: 'file', data: new URL('https://example.com/a.pdf'), mediaType: 'application/pdf' },
    ],
  },
  { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'look', input: {} }] },
  {
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId: 'c1',
        toolName: 'look',
        output: {
          type: 'content',
          value: [
            { type: 'text', text: 'Here.' },
            { type: 'image-data', data: 'aW1n', mediaType: 'image/jpeg' },
            { type: 'file-data', data: 'cGRm', mediaType: 'application/pdf', filename: 'r.pdf' },
            { type: 'image-url', url: 'https://example.com/b.png' },
          ],
        },
      },
      { type: 'tool-approval-response', approvalId: 'a1', approved: true },
    ],
  },
];

describe('bridgeV3Prompt', () => {
  it('reads AI SDK 6 media in V4 tagged shapes', () => {
    const { prompt: v4 } = bridgeV3Prompt(prompt);
    expect(v4[1]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'Look.' },
        { type: 'file', data: { type: 'data', data: bytes }, mediaType: 'image/png' },
        {
          type: 'file',
          data: { type: 'url', url: new URL('https://example.com/a.pdf') },
          mediaType: 'application/pdf',
        },
      ],
    });
    expect(v4[2]).toEqual({ role: 'assistant', content: [] }); // a stand-in: nothing in it is fitted
    expect(v4[3]).toMatchObject({
      content: [
        {
          output: {
            value: [
              { type: 'text', text: 'Here.' },
              { type: 'file', data: { type: 'data', data: 'aW1n' }, mediaType: 'image/jpeg' },
              { type: 'file', data: { type: 'data', data: 'cGRm' }, mediaType: 'application/pdf', filename: 'r.pdf' },
              { type: 'custom' },
            ],
          },
        },
        { type: 'tool-approval-response', approvalId: 'a1', approved: true },
      ],
    });
  });

  it('gives back the same prompt when nothing was changed, the untouched parts as the very objects', () => {
    const bridged = bridgeV3Prompt(prompt);
    const back = bridged.back(bridged.prompt);
    expect(back).toEqual(prompt);
    expect(back[2]).toBe(prompt[2]);
    const tool = back[3];
    const original = prompt[3];
    if (tool?.role !== 'tool' || original?.role !== 'tool') throw new Error('not a tool message');
    const output = tool.content[0]?.type === 'tool-result' ? tool.content[0].output : undefined;
    const originalOutput = original.content[0]?.type === 'tool-result' ? original.content[0].output : undefined;
    if (output?.type !== 'content' || originalOutput?.type !== 'content') throw new Error('not content');
    expect(output.value[3]).toBe(originalOutput.value[3]);
  });

  it('writes fitted V4 files the way AI SDK 6 reads them: image-data, file-data, inline user data', () => {
    const bridged = bridgeV3Prompt([]);
    const fitted: LanguageModelV4Prompt = [
      { role: 'user', content: [{ type: 'file', data: { type: 'data', data: 'anBn' }, mediaType: 'image/jpeg' }] },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 'look',
            output: {
              type: 'content',
              value: [
                { type: 'file', data: { type: 'data', data: bytes }, mediaType: 'image/png' },
                { type: 'file', data: { type: 'data', data: 'cGRm' }, mediaType: 'application/pdf', filename: 'r.pdf' },
              ],
            },
          },
        ],
      },
    ];
    expect(bridged.back(fitted)).toEqual([
      { role: 'user', content: [{ type: 'file', data: 'anBn', mediaType: 'image/jpeg' }] },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 'look',
            output: {
              type: 'content',
              value: [
                { type: 'image-data', data: 'AQID', mediaType: 'image/png' },
                { type: 'file-data', data: 'cGRm', mediaType: 'application/pdf', filename: 'r.pdf' },
              ],
            },
          },
        ],
      },
    ]);
  });
});
