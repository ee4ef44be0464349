import { describe, expect, it } from 'vitest';
import type { Message } from '../types.js';
import { chooseWindow } from './choose-window.js';
import { estimateMessageTokens } from './estimate-tokens.js';

const text = (role: 'user', words: string): Message => ({ role, parts: [{ type: 'text', text: words }] });
const call = (id: string): Message => ({
  role: 'assistant',
  text: '',
  toolCalls: [{ id, name: 'shot', arguments: {} }],
});
const shot = (id: string): Message => ({
  role: 'toolResult',
  toolCallId: id,
  toolName: 'shot',
  isError: false,
  parts: [
    { type: 'text', text: `screen ${id}` },
    { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=', width: 1000, height: 1000 },
  ],
});
const estimate = (message: Message) => estimateMessageTokens(message, { provider: 'anthropic' });

const conversation: Message[] = [
  text('user', 'start'),
  call('a'),
  shot('a'),
  call('b'),
  shot('b'),
  text('user', 'x'.repeat(400)),
  call('c'),
  shot('c'),
];

describe('chooseWindow', () => {
  it('keeps everything within budget untouched', () => {
    const window = chooseWindow({ messages: conversation, budget: 10_000, estimate });
    expect(window.messages).toEqual(conversation);
    expect(window).toMatchObject({ droppedMessages: 0, replacedMedia: 0, fits: true });
  });

  it('replaces older images with placeholders before dropping any text, oldest first', () => {
    // Three images of 1,296 tokens: room for one image plus text, so both older images go.
    const window = chooseWindow({ messages: conversation, budget: 1296 + 300, estimate });
    expect(window.droppedMessages).toBe(0);
    expect(window.replacedMedia).toBe(2);
    expect(window.fits).toBe(true);
    const placeholders = window.messages
      .flatMap((m) => (m.role === 'toolResult' ? m.parts : []))
      .filter((p) => p.type === 'text' && p.text.startsWith('[image omitted'));
    expect(placeholders).toHaveLength(2);
    expect(window.messages[7]).toEqual(conversation[7]);
    expect(window.tokens).toBe(window.messages.reduce((sum, m) => sum + estimate(m), 0));
  });

  it('replaces only as many as needed', () => {
    const window = chooseWindow({ messages: conversation, budget: 2 * 1296 + 300, estimate });
    expect(window.replacedMedia).toBe(1);
    expect(window.messages[2]).not.toEqual(conversation[2]);
    expect(window.messages[4]).toEqual(conversation[4]);
  });

  it('then drops whole older turns, never a call without its result', () => {
    const window = chooseWindow({ messages: conversation, budget: 1296 + 40, estimate });
    expect(window.fits).toBe(true);
    expect(window.messages[0]).toMatchObject({
      role: 'user',
      parts: [{ type: 'text', text: expect.stringMatching(/^\[\d+ earlier messages omitted/) }],
    });
    // Every call kept has its result, every result its call, and the call comes first.
    const callAt = new Map(
      window.messages.flatMap((m, i) => (m.role === 'assistant' ? m.toolCalls.map((c) => [c.id, i] as const) : [])),
    );
    const resultAt = new Map(
      window.messages.flatMap((m, i) => (m.role === 'toolResult' ? [[m.toolCallId, i] as const] : [])),
    );
    expect(resultAt.size).toBeGreaterThan(0);
    expect([...resultAt.keys()].sort()).toEqual([...callAt.keys()].sort());
    for (const [id, index] of resultAt) expect(callAt.get(id)).toBeLessThan(index);
    expect(window.messages.slice(-2)).toEqual(conversation.slice(-2));
    expect(window.droppedMessages).toBe(conversation.length - (window.messages.length - 1));
  });

  it('keeps the newest turn whole even when it alone is over budget', () => {
    const window = chooseWindow({ messages: conversation, budget: 10, estimate });
    expect(window.fits).toBe(false);
    expect(window.messages.slice(1)).toEqual(conversation.slice(-2));
  });
});

describe('chooseWindow with thumbnails', () => {
  it('keeps an image whose placeholder would cost more than it does', () => {
    const tiny: Message = {
      role: 'toolResult',
      toolCallId: 'a',
      toolName: 'shot',
      isError: false,
      parts: [{ type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=', width: 28, height: 28 }],
    };
    const messages: Message[] = [text('user', 'go'), call('a'), tiny, text('user', 'y'.repeat(4000))];
    const window = chooseWindow({ messages, budget: 1000, estimate });
    expect(window.replacedMedia).toBe(0);
    expect(window.messages.slice(-1)).toEqual(messages.slice(-1));
  });
});

describe('chooseWindow under a byte budget too', () => {
  const big = (id: string): Message => ({
    role: 'toolResult',
    toolCallId: id,
    toolName: 'shot',
    isError: false,
    // 400 KB of base64 but few tokens at 100x100 px: only the byte meter sees it.
    parts: [{ type: 'image', mediaType: 'image/png', data: 'A'.repeat(400_000), width: 100, height: 100 }],
  });
  const heavy: Message[] = [text('user', 'start'), call('a'), big('a'), call('b'), big('b'), call('c'), big('c')];

  it('reports bytes beside tokens, and placeholders older media when bytes, not tokens, are over', () => {
    const loose = chooseWindow({ messages: heavy, budget: 100_000, estimate });
    expect(loose.bytes).toBeGreaterThan(1_200_000);
    expect(loose.replacedMedia).toBe(0);
    const window = chooseWindow({ messages: heavy, budget: 100_000, estimate, bytes: { budget: 900_000 } });
    expect(window).toMatchObject({ replacedMedia: 1, droppedMessages: 0, fits: true });
    expect(window.bytes).toBeLessThanOrEqual(900_000);
    expect(window.tokens).toBeLessThanOrEqual(100_000);
    // The oldest image went; the newest turn is untouched.
    expect(window.messages.at(-1)).toBe(heavy.at(-1));
    expect(window.messages[2]).toMatchObject({
      parts: [{ type: 'text', text: expect.stringContaining('image omitted') }],
    });
  });

  it('says when even the newest turn is over the bytes', () => {
    const window = chooseWindow({ messages: heavy, budget: 100_000, estimate, bytes: { budget: 100_000 } });
    expect(window.fits).toBe(false);
    expect(window.messages.at(-1)).toBe(heavy.at(-1));
  });
});
