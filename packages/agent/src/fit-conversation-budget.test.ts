import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { denseScreenshot } from '../../../test/support/dense-screenshot.js';
import { assertStrictlyValid } from '../../../test/support/strict-oracle.js';
import { base64ToBytes } from './base64.js';
import { createFitCache, fitConversation } from './fit-conversation.js';
import { requestBytes } from './request-bytes.js';
import type { ImagePart, Message } from './types.js';

let shots: ImagePart[] = [];

beforeAll(async () => {
  shots = await Promise.all(
    Array.from({ length: 6 }, async (_, i) => ({
      type: 'image' as const,
      mediaType: 'image/png' as const,
      data: (await denseScreenshot({ seed: 40 + i })).toString('base64'),
      width: 1500,
      height: 1000,
    })),
  );
}, 30_000);

/** One screenshot per turn: the agent looked, then looked again. The last result is the newest turn. */
function turns(images: readonly ImagePart[]): Message[] {
  return [
    { role: 'user', parts: [{ type: 'text', text: 'watch the screen' }] },
    ...images.flatMap((image, i): Message[] => [
      { role: 'assistant', text: '', toolCalls: [{ id: `c${i}`, name: 'screenshot', arguments: {} }] },
      { role: 'toolResult', toolCallId: `c${i}`, toolName: 'screenshot', parts: [image], isError: false },
    ]),
  ];
}

const imagesOf = (messages: readonly Message[]) =>
  messages.flatMap((m) => (m.role === 'assistant' ? [] : m.parts)).filter((p): p is ImagePart => p.type === 'image');

describe('fitConversation: the whole request within its bytes', () => {
  it('fits the older screenshots smaller and sends the newest as it is; the history keeps every original', async () => {
    const messages = turns(shots);
    const copy = structuredClone(messages);
    const cap = 6_000_000; // the six PNGs take ~8.9 MB of base64
    const fitted = await fitConversation({ messages, provider: 'anthropic', maxRequestBytes: cap });
    expect(messages).toEqual(copy);
    expect(fitted.requestBytes).toBeLessThan(cap);
    expect(requestBytes('anthropic', { messages: fitted.messages })).toBe(fitted.requestBytes);
    const images = imagesOf(fitted.messages);
    expect(images).toHaveLength(6);
    expect(images[5]).toBe(shots[5]);
    for (const image of images) {
      const bytes = base64ToBytes(image.data)!;
      assertStrictlyValid(bytes, image.mediaType);
      const { width = 0 } = await sharp(bytes).metadata();
      expect(width).toBeGreaterThanOrEqual(1024); // the legible floor
    }
    const refitted = fitted.warnings.filter((w) => w.type === 'media-refitted');
    expect(refitted.length).toBeGreaterThan(0);
    for (const warning of refitted) {
      expect(warning.messageIndex).toBeLessThan(messages.length - 1);
      expect(warning).toMatchObject({ bytes: { from: expect.any(Number), to: expect.any(Number) } });
      expect(warning.message).toContain('to keep the request under 6.00 MB');
    }
  }, 120_000);

  it('below what every floor takes, leaves the oldest out with a note, and keeps the newest', async () => {
    const fitted = await fitConversation({ messages: turns(shots), provider: 'gemini', maxRequestBytes: 900_000 });
    expect(fitted.requestBytes).toBeLessThan(900_000);
    const omitted = fitted.warnings.filter((w) => w.type === 'media-omitted');
    expect(omitted.length).toBeGreaterThan(0);
    expect(omitted.every((w) => w.type === 'media-omitted' && w.reason === 'request-too-large')).toBe(true);
    // Oldest first: the omitted ones are the first results, and the newest is still an image.
    const last = fitted.messages.at(-1)!;
    expect(last.role !== 'assistant' && last.parts.some((p) => p.type === 'image')).toBe(true);
    const first = fitted.messages[2]!;
    expect(first.role !== 'assistant' && first.parts[0]).toEqual({
      type: 'text',
      text: expect.stringContaining('view the file again to see it'),
    });
  }, 120_000);

  it('reuses its fits across turns through the cache: the next turn re-fits nothing already within its allowance', async () => {
    const cache = createFitCache();
    const messages = turns(shots.slice(0, 5));
    const first = await fitConversation({ messages, provider: 'anthropic', maxRequestBytes: 5_000_000, cache });
    const again = await fitConversation({ messages, provider: 'anthropic', maxRequestBytes: 5_000_000, cache });
    expect(imagesOf(again.messages)).toEqual(imagesOf(first.messages));
    expect(imagesOf(again.messages).every((image, i) => image === imagesOf(first.messages)[i])).toBe(true);
  }, 120_000);

  it('warns when the text alone is over the cap', async () => {
    const messages: Message[] = [{ role: 'user', parts: [{ type: 'text', text: 'x'.repeat(200_000) }] }];
    const fitted = await fitConversation({ messages, provider: 'anthropic', maxRequestBytes: 100_000 });
    expect(fitted.warnings).toMatchObject([{ type: 'request-over-budget', cap: 100_000 }]);
  });
});
