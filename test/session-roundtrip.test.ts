import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { PROVIDER_NAMES } from '../packages/agent/src/route/capabilities.js';
import type { Message } from '../packages/agent/src/types.js';
import { serialize } from '../packages/agent/src/providers/serialize.js';
import { loadSession } from '../packages/agent/src/session/load-session.js';
import { SessionWriter } from '../packages/agent/src/session/session-writer.js';
import * as make from './fixtures/make.js';

let conversation: Message[];

beforeAll(async () => {
  const png = (
    await sharp({ create: { width: 1200, height: 800, channels: 4, background: '#20a060c0' } })
      .png()
      .toBuffer()
  ).toString('base64');
  const jpeg = (
    await sharp({ create: { width: 300, height: 900, channels: 3, background: '#c08020' } })
      .jpeg()
      .toBuffer()
  ).toString('base64');
  const webp = (
    await sharp({ create: { width: 50, height: 50, channels: 3, background: '#000' } })
      .webp()
      .toBuffer()
  ).toString('base64');
  const pdf = Buffer.from(await make.pdf()).toString('base64');
  conversation = [
    {
      role: 'user',
      parts: [
        { type: 'text', text: 'Here is my screen; what is on it? Also "quotes", \\ and\nnewlines ✓.' },
        { type: 'image', mediaType: 'image/jpeg', data: jpeg, width: 300, height: 900 },
      ],
    },
    {
      role: 'assistant',
      text: 'Let me look at the files.',
      toolCalls: [
        { id: 'toolu_1', name: 'view_file', arguments: { path: 'shot.png' } },
        { id: 'toolu_2', name: 'view_file', arguments: { path: 'report.pdf', pages: [1] } },
        { id: 'toolu_3', name: 'view_file', arguments: { path: 'missing.png' } },
      ],
    },
    {
      role: 'toolResult',
      toolCallId: 'toolu_1',
      toolName: 'view_file',
      isError: false,
      parts: [
        { type: 'text', text: 'shot.png: 1200×800 PNG' },
        { type: 'image', mediaType: 'image/png', data: png, width: 1200, height: 800 },
      ],
    },
    {
      role: 'toolResult',
      toolCallId: 'toolu_2',
      toolName: 'view_file',
      isError: false,
      parts: [{ type: 'document', mediaType: 'application/pdf', data: pdf, filename: 'report.pdf', pages: 1 }],
    },
    {
      role: 'toolResult',
      toolCallId: 'toolu_3',
      toolName: 'view_file',
      isError: true,
      parts: [
        { type: 'text', text: 'E_NOT_FOUND: missing.png does not exist' },
        { type: 'image', mediaType: 'image/webp', data: webp },
      ],
    },
    { role: 'assistant', text: 'A green panel and a one-page report; the third file is missing.', toolCalls: [] },
    {
      role: 'user',
      parts: [
        { type: 'text', text: 'And this PDF without a name?' },
        { type: 'document', mediaType: 'application/pdf', data: pdf },
      ],
    },
    { role: 'assistant', text: '', toolCalls: [{ id: 'toolu_4', name: 'view_file', arguments: { path: 'shot.png' } }] },
    {
      role: 'toolResult',
      toolCallId: 'toolu_4',
      toolName: 'view_file',
      isError: false,
      parts: [{ type: 'image', mediaType: 'image/png', data: png, width: 1200, height: 800 }],
    },
    { role: 'assistant', text: 'Same screenshot as before.', toolCalls: [] },
  ];
});

// Every route, plus the models that change the output shape: older vs newer Gemini, text-only models.
const targets = [
  ...PROVIDER_NAMES.map((provider) => ({ provider, model: undefined })),
  { provider: 'gemini', model: 'gemini-2.5-flash' },
  { provider: 'gemini', model: 'gemini-3-pro-preview' },
  { provider: 'openai-chat', model: 'gpt-3.5-turbo' },
  { provider: 'bedrock', model: 'us.amazon.nova-pro-v1:0' },
  { provider: 'ollama', model: 'llava' },
] as const;

describe('a session written, reloaded and re-serialized', () => {
  for (const contentAddressed of [false, true]) {
    it(`serializes identically for every provider (${contentAddressed ? 'content-addressed' : 'inline'})`, async () => {
      const path = join(await mkdtemp(join(tmpdir(), 'glimpse-roundtrip-')), 'session.jsonl');
      const writer = await SessionWriter.open(path, { contentAddressed, app: { name: 'roundtrip' } });
      // The three parallel results are appended at once, as the agent loop does.
      for (const message of conversation.slice(0, 2)) await writer.append(message);
      await Promise.all(conversation.slice(2, 5).map((message) => writer.append(message)));
      for (const message of conversation.slice(5)) await writer.append(message);
      await writer.close();

      const loaded = await loadSession(path);
      expect(loaded.tornTail).toBeUndefined();
      expect(loaded.messages).toStrictEqual(conversation);
      const tools = [
        {
          name: 'view_file',
          description: 'View a file.',
          parameters: { type: 'object', properties: { path: { type: 'string' } } },
        },
      ];
      for (const { provider, model } of targets) {
        const original = serialize(provider, { messages: conversation, tools, ...(model && { model }) });
        const reloaded = serialize(provider, { messages: loaded.messages, tools, ...(model && { model }) });
        expect(JSON.stringify(reloaded), `${provider} ${model ?? ''}`).toBe(JSON.stringify(original));
      }
      // Not vacuous: the vision routes carry the screenshot and the PDF bytes themselves.
      const anthropic = JSON.stringify(serialize('anthropic', { messages: loaded.messages }));
      const results = [conversation[2], conversation[3]];
      expect(results.map((m) => m?.role)).toEqual(['toolResult', 'toolResult']);
      const media = results
        .flatMap((m) => (m?.role === 'toolResult' ? m.parts : []))
        .flatMap((part) => (part.type === 'text' ? [] : [part]));
      // One assertion over both parts, each named: the image's and the PDF's base64 are in the body.
      expect(media.map((part) => ({ type: part.type, sent: anthropic.includes(part.data) }))).toEqual([
        { type: 'image', sent: true },
        { type: 'document', sent: true },
      ]);
    });
  }
});
